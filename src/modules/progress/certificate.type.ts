import 'reflect-metadata';
import { Field, ObjectType } from 'type-graphql';

@ObjectType({
  description:
    'A certificate as it is printed (GET /certificates/:code.pdf): what its verification shows, the school that issued it, and where anyone verifies it. Read with no credential, by its code.',
})
export class PrintableCertificate {
  @Field(() => String) code!: string;
  @Field(() => String) studentName!: string;
  @Field(() => String) productTitle!: string;
  @Field(() => Date) issuedAt!: Date;
  @Field(() => String) schoolName!: string;
  @Field(() => String, {
    nullable: true,
    description: "The school's logo when its record holds the image (a data: URL of a PNG or JPEG); null for a logo at a remote address, which is never fetched.",
  })
  schoolLogo!: string | null;
  @Field(() => String, { description: "The language it is worded in: the school's (en, pt-BR or es; pt-BR when the school names none)." }) locale!: string;
  @Field(() => String, { description: 'The public verification (GET /certificates/:code), which its QR code holds.' }) verificationUrl!: string;
}
