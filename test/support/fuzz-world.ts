import { sql } from 'drizzle-orm';
import type { GraphQLSchema } from 'graphql';
import { snake } from '../../src/rest/names.js';
import { Draw, type IdSource, valueFor } from './fuzz-values.js';
import type { Client, Service, TestSchool } from './service.js';
import { rowsOf } from '../../src/db/rows.js';

/** People are one table; a few names point at another table than their own. */
const aliases: Record<string, string> = {
  student: 'users', collaborator: 'users', admin: 'users', user: 'users', author: 'users', teacher: 'users', person: 'users',
  // A VideoSlide's video is an Image.
  video: 'images', logo: 'images', image: 'images', channel: 'message_channels',
  // The spec's own misspelling of collaborative discussions, served as an alias.
  collaborative_discurssion: 'collaborative_discussions', collaborative_discurssions: 'collaborative_discussions',
  // The Edools v1 names of the routes beyond the spec (README, "Routes beyond the spec").
  students: 'users', collaborators: 'users', product: 'school_products', products: 'school_products',
  course_content: 'lessons', course_contents: 'lessons', school_classes: 'course_classes', lessons_progresses: 'lesson_progress',
  // The REST twins' paths: the admins (people), a media's processing report.
  admins: 'users', media_processing: 'media',
};

/**
 * The fuzz test's world: two schools (A, where every request acts, and B, the only school a
 * write may name, so no request cancels or deletes A), objects of (nearly) every kind in A made
 * through the API, and the ids of real rows by table.
 */
export class FuzzWorld implements IdSource {
  private tables: string[] = [];
  private ids = new Map<string, number[]>();
  private schoolTables = new Set<string>();
  fingerprintStatement = sql``;
  /** Root fields that created at least one object while seeding. */
  seeded: string[] = [];

  constructor(
    readonly service: Service,
    readonly schema: GraphQLSchema,
    readonly a: TestSchool,
    readonly b: TestSchool,
  ) {}

  static async build(service: Service, schema: GraphQLSchema): Promise<FuzzWorld> {
    return FuzzWorld.seeded(service, schema, await service.school('Fuzz School A'), await service.school('Fuzz School B'));
  }

  /** A world acting in school `a` (seeded with objects of every kind), `b` being the other school. */
  static async seeded(service: Service, schema: GraphQLSchema, a: TestSchool, b: TestSchool, passes = 3): Promise<FuzzWorld> {
    const world = new FuzzWorld(service, schema, a, b);
    await world.readTables();
    await world.seed(world.a.admin, passes);
    return world;
  }

  /** The tables that say whose their rows are (a `school_id` column). */
  get tablesOfSchools(): ReadonlySet<string> {
    return this.schoolTables;
  }

  /** The credentials the fuzz test acts with: A's admin, and the platform acting for A. */
  get platformForA(): Client {
    return this.service.platform.forSchool(this.a.id);
  }

  private async readTables() {
    const rows = await this.service.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    // Rate-limit buckets change on every request by design; they are not the data a request may not touch.
    this.tables = rowsOf<{ table_name: string }>(rows).map((r) => r.table_name);
    const owned = await this.service.db.execute(
      sql`select table_name from information_schema.columns where table_schema = 'public' and column_name = 'school_id'`,
    );
    this.schoolTables = new Set(rowsOf<{ table_name: string }>(owned).map((r) => r.table_name));
    const counted = this.tables.filter((t) => !/rate_limit/.test(t));
    this.fingerprintStatement = sql.raw(
      `select ${counted.map((t) => `(select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from "${t}")`).join(" || ',' || ")} as fp`,
    );
  }

  /** Row counts and the newest row version (xmin) of every table: any committed write changes it. */
  async fingerprint(): Promise<string> {
    const result = await this.service.db.execute<{ fp: string }>(this.fingerprintStatement);
    return rowsOf<{ fp: string }>(result)[0].fp;
  }

  async refreshIds() {
    for (const table of this.tables) {
      // Rows of school A where the table says whose they are.
      const mine = this.schoolTables.has(table) ? ` where school_id = ${this.a.id}` : '';
      const result = await this.service.db.execute<{ id: number }>(sql.raw(`select id from "${table}"${mine} order by id desc limit 8`)).catch(() => null);
      if (!result) continue;
      this.ids.set(table, rowsOf<{ id: number }>(result).map((r) => Number(r.id)));
    }
    this.ids.set('schools', [this.b.id]);
  }

  /** The table an argument, a path parameter or a resource names (`schoolProductId`, `school_product_id`, `courses`). */
  tableOf(name: string): string | undefined {
    const base = snake(name).replace(/_ids?$/, '').replace(/^(create|update|delete|revoke)_/, '');
    const last = base.split('_').pop()!;
    const candidates = [base, `${base}s`, base.replace(/y$/, 'ies'), `${base}es`, base.replace(/s$/, ''), aliases[base], aliases[last]];
    return candidates.find((c) => c && this.ids.has(c) && this.ids.get(c)!.length);
  }

  idsFor(name: string): number[] {
    const table = this.tableOf(name);
    if (table) return this.ids.get(table)!;
    return [...new Set([...this.ids.values()].flat())].slice(0, 20);
  }

  /**
   * Objects made the way a client makes them: every `create*` mutation with plausible arguments,
   * over a few passes (later kinds refer to earlier ones); a refused field is drawn again, then dropped.
   */
  private async seed(client: Client, passes: number) {
    const mutations = Object.values(this.schema.getMutationType()!.getFields()).filter((f) => f.name.startsWith('create') && f.name !== 'createSchool');
    const d = Draw.seeded(20260115);
    for (let pass = 0; pass < passes; pass++) {
      await this.refreshIds();
      for (const field of mutations) {
        const declared = field.args.map((a) => `$${a.name}: ${a.type}`).join(', ');
        const call = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const document = `mutation(${declared}) { r: ${field.name}(${call}) { errors { field code } } }`;
        const variables = Object.fromEntries(field.args.map((a) => [a.name, valueFor(d, a.type, a.name, { ids: this, nastiness: 0, complete: true })]));
        for (let attempt = 0; attempt < 6; attempt++) {
          const res = await client.graphql(document, variables);
          const errors: { field: string[]; code: string }[] | undefined = res.data?.r?.errors;
          if (errors?.length === 0 && !this.seeded.includes(field.name)) this.seeded.push(field.name);
          if (!errors?.length) break;
          const input = variables.input as Record<string, unknown> | undefined;
          for (const e of errors) {
            const inputField = input && e.field.length ? (field.args.find((a) => a.name === 'input')!.type as any).ofType?.getFields?.()[e.field[0]] ?? (field.args.find((a) => a.name === 'input')!.type as any).getFields?.()[e.field[0]] : undefined;
            if (!inputField) continue;
            if (attempt >= 4 && e.code !== 'blank') delete input![e.field[0]];
            else input![e.field[0]] = valueFor(d, inputField.type, inputField.name, { ids: this, nastiness: 0, complete: true });
          }
        }
      }
    }
    await this.refreshIds();
  }
}
