import 'reflect-metadata';
import { Resolver } from 'type-graphql';
import { isOwn } from '../../auth/tenancy.js';
import { notFound } from '../../graphql/errors.js';
import { relationsResolver } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { addressById, addressesOfPerson, addressOwnerById } from './address.loaders.js';
import type { AddressRow } from './address.table.js';
import { Address, AddressInput } from './address.type.js';
import { AdminTypes, CollaboratorTypes, StudentTypes } from './user.type.js';

const TEXT_FIELDS = ['street', 'number', 'complement', 'district', 'city', 'state', 'country', 'zipCode'] as const;
const REQUIRED = new Set<string>(['street', 'city', 'zipCode']);

/** A person's addresses: created under the person (`createAddress(userId:, input:)`), listed by person, read, changed and deleted by id. */
@Resolver(() => Address)
export class AddressResolver extends resourceResolver({
  type: Address,
  plural: 'addresses',
  byId: addressById,
  parent: { arg: 'userId', type: 'User', byId: addressOwnerById, column: 'userId', inList: true },
  columns: (_tx, input: AddressInput, { current }) => {
    const checks = new Checks();
    for (const field of REQUIRED) checks.present(!current, field, input[field as keyof AddressInput]);
    checks.throwIfAny();
    const values: Partial<AddressRow> = {};
    for (const field of TEXT_FIELDS) {
      const given = input[field];
      if (given === undefined) continue;
      const trimmed = given?.trim() || null;
      (values as Record<string, string | null>)[field] = trimmed;
    }
    return values;
  },
  // The row's school is checked by the write; a student changes only its own person's addresses.
  mayChange: (ctx, address) => {
    if (!isOwn(ctx, address.userId)) throw notFound('Address');
  },
  descriptions: {
    show: 'An address; a student credential reads only its own.',
    list: "A person's addresses (a student credential: only its own person).",
    create: 'Adds an address to a person of the school (a student credential: to itself). street, city and zipCode are required.',
    update: 'Changes an address (a student credential: its own).',
    delete: 'Deletes an address (a student credential: its own).',
  },
}) {}

/** Each kind of person's addresses, through one batched loader. */
const addressesOf = { addresses: { type: () => [Address], loader: addressesOfPerson, key: 'id' as const, description: 'Their postal addresses.' } };
export const PersonAddressResolvers = [StudentTypes, CollaboratorTypes, AdminTypes].map((types) => relationsResolver<{ id: number }>(types.Type, addressesOf));
