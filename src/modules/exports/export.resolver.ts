import 'reflect-metadata';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { exportById } from './export.loaders.js';
import { downloadPathOf, exportFileOf, readFilters } from './export.rules.js';
import { exportFiles, type ExportKindValue, type ExportRow } from './export.table.js';
import { ExportFilters } from './export.input.js';
import { Export, ExportFile, ExportKindEnum, ExportPayload } from './export.type.js';
import { exportKinds, filterProblems, filterValues, storedFilters } from './export.csv.js';

@Resolver(() => Export)
export class ExportResolver {
  @Query(() => ExportFile, {
    description:
      "A CSV file of the school's enrollments, orders or progress, with the filters of the matching list: its name and the path (GET) that streams it now. " +
      'A student named by the filters, or a product or class, of another school is not found.',
  })
  async exportFile(@Arg('kind', () => ExportKindEnum) kind: ExportKindValue, @Args(() => ExportFilters) args: ExportFilters, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    const filters = readFilters(kind, args);
    await exportKinds[kind].where(ctx, filters);
    return exportFileOf(kind, schoolId, filters, ctx.now());
  }

  @Mutation(() => ExportPayload, {
    description: 'Starts an export job (a large school): the background job writes the file; export(id) tells when it is done and where to download it.',
  })
  async startExport(
    @Arg('kind', () => ExportKindEnum) kind: ExportKindValue,
    @Arg('filters', () => ExportFilters, { nullable: true }) given: ExportFilters | null | undefined,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    const filters = filterValues(given as Record<string, unknown> | null | undefined);
    const checks = new Checks().nested('filters');
    for (const p of filterProblems(kind, filters)) checks.add(p.field, p.code, p.message);
    // The named rows must be the school's now (404; the job reads them again when it runs): read before
    // the transaction, whose connection is the embedded database's only session.
    if (checks.errors.length === 0) await exportKinds[kind].where(ctx, filters);
    return mutate(ctx, 'export', async (tx) => {
      checks.throwIfAny();
      const [row] = await tx.insert(exportFiles).values({ schoolId, kind, filters: storedFilters(filters), createdAt: ctx.now() }).returning();
      return row;
    });
  }

  @Query(() => Export, { description: 'An export job of the school: its status, and once done its row count and download path.' })
  export(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, exportById, parseId(id, 'Export'), 'Export');
  }

  @FieldResolver(() => String, { nullable: true, description: 'Where the file downloads (GET), once done.' })
  downloadPath(@Root() row: ExportRow) {
    return row.status === 'done' ? downloadPathOf(row.id) : null;
  }
}
