import 'reflect-metadata';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: "A school's terms for recurring invoices (its own, else the environment's defaults)." })
export class BillingSettings {
  @Field(() => ID) schoolId!: number;
  @Field(() => Int, { description: 'Days from the opening of a recurring invoice to its due date (BILLING_DUE_DAYS by default).' }) dueDays!: number;
  @Field(() => Int, { description: 'Days past the due date before an overdue invoice is unpaid and access is suspended (BILLING_GRACE_DAYS by default).' })
  graceDays!: number;
}

@InputType({ description: 'Null: back to the default of the environment; absent: unchanged.' })
export class BillingSettingsInput {
  @Field(() => Int, { nullable: true, description: '0..365.' }) dueDays?: number | null;
  @Field(() => Int, { nullable: true, description: '0..365.' }) graceDays?: number | null;
}
