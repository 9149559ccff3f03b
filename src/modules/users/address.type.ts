import 'reflect-metadata';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@Timestamped()
@ObjectType({ description: "A person's postal address: staff read and write any person's of the school, a student its own." })
export class Address extends SchoolRecord {
  @Field(() => ID, { description: 'The person (a student, collaborator or admin).' }) userId!: number;
  @Field(() => String) street!: string;
  @Field(() => String, { nullable: true, description: 'Text: "123", "s/n".' }) number!: string | null;
  @Field(() => String, { nullable: true }) complement!: string | null;
  @Field(() => String, { nullable: true, description: 'The neighbourhood (bairro).' }) district!: string | null;
  @Field(() => String) city!: string;
  @Field(() => String, { nullable: true, description: 'The state or province (RJ, SP).' }) state!: string | null;
  @Field(() => String, { nullable: true }) country!: string | null;
  @Field(() => String, { description: 'The postal code (CEP).' }) zipCode!: string;
}

export const AddressConnection = connectionType(Address);

@InputType({ description: 'street, city and zipCode are required on create and may not be cleared.' })
@RequiredFields('street', 'city', 'zipCode')
export class AddressInput {
  @Field(() => String, { nullable: true }) street?: string | null;
  @Field(() => String, { nullable: true }) number?: string | null;
  @Field(() => String, { nullable: true }) complement?: string | null;
  @Field(() => String, { nullable: true }) district?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) state?: string | null;
  @Field(() => String, { nullable: true }) country?: string | null;
  @Field(() => String, { nullable: true }) zipCode?: string | null;
}
