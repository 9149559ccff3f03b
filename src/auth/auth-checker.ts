import type { AuthChecker } from 'type-graphql';
import type { Context } from '../graphql/context.js';
import { AppError, forbidden } from '../graphql/errors.js';
import type { Role } from './credential.js';

/** `@Authorized()`: any valid credential; `@Authorized('admin', ...)`: one of these roles. */
export const authChecker: AuthChecker<Context, Role> = ({ context }, roles) => {
  if (!context.credential) {
    throw new AppError('unauthenticated', 'A valid credential is required (Authorization: Bearer <token>)');
  }
  if (roles.length > 0 && !roles.includes(context.credential.role)) throw forbidden();
  return true;
};
