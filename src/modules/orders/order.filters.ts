import { and, eq, gte, lt, type SQL } from 'drizzle-orm';
import { inSchool, ownRows } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { filterIdMatch } from '../../graphql/filters.js';
import type { OrderStatus } from './order.state.js';
import { orders } from './order.table.js';

/** A student credential sees only its own orders; other roles see the school's. */
export function ownOrders(ctx: Context): SQL | undefined {
  return ownRows(ctx, orders.studentId);
}

/** The filters of the orders list (`orders(status, studentId, createdFrom, createdTo)`): also the CSV export's. */
export interface OrderFilters {
  status?: OrderStatus | null;
  studentId?: string | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
}

/** The rows an orders list reads: the school's (a student's own), narrowed by the filters. */
export function ordersWhere(ctx: Context, args: OrderFilters): SQL | undefined {
  return and(
    inSchool(ctx, orders.schoolId),
    ownOrders(ctx),
    args.status ? eq(orders.status, args.status) : undefined,
    filterIdMatch(orders.studentId, args.studentId, 'studentId'),
    args.createdFrom ? gte(orders.createdAt, args.createdFrom) : undefined,
    args.createdTo ? lt(orders.createdAt, args.createdTo) : undefined,
  );
}
