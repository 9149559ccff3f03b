import { readFileSync } from 'node:fs';
import { fieldReaders, ROLES, type Rule } from '../auth/role-matrix.js';
import { commonCodes, errorCodes, type ErrorCode } from '../graphql/error-codes.js';
import { EVENT_NAMES, eventCatalog, payloadJsonSchema } from '../modules/events/catalog.js';
import { schoolStatusAccess } from '../auth/school-gate.js';
import type { SchoolStatus } from '../db/school.table.js';
import { schoolEvents, schoolTransitions } from '../auth/school-lifecycle.js';
import { machineRows } from '../modules/orders/order.state.js';
import { routes, service } from '../service-modules.js';
import { personalData } from '../db/personal-data.js';
import { getTableName } from 'drizzle-orm';

// The tables read what the service's modules declare, as assembled at start-up.
const { operations: operationRules, fields: fieldRules } = service.roleMatrix;

/**
 * The README's tables that the code decides: the role matrix, the school lifecycle and the status
 * gate. They are rendered between `<!-- name:start -->` and `<!-- name:end -->` markers, so
 * `npm run schema:write` refreshes them and the artifacts test fails when they are stale.
 */
const blocks: Record<string, () => string> = {
  'role-matrix': roleMatrixTable,
  'field-rules': fieldRulesTable,
  'school-lifecycle': lifecycleTable,
  'school-gate': gateTable,
  'selling-machine': sellingTable,
  events: eventsTable,
  'error-codes': errorCodesTable,
  'personal-data': personalDataTable,
  'routes-beyond-spec': beyondSpecTable,
};

export function renderReadme(current: string): string {
  let text = current;
  for (const [name, render] of Object.entries(blocks)) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`README.md lacks the markers ${start} … ${end}`);
    text = `${text.slice(0, from + start.length)}\n${render()}${text.slice(to)}`;
  }
  return text;
}

export function renderReadmeFile(path: string): string {
  return renderReadme(readFileSync(path, 'utf8'));
}

const mark = { allow: 'yes', own: 'own', deny: '—' } as const;

/** Consecutive operations with one rule share a row: the matrix is written resource by resource. */
function roleMatrixTable(): string {
  const groups: { names: string[]; rule: Rule }[] = [];
  const signature = (rule: Rule) => JSON.stringify([...ROLES.map((r) => rule[r] ?? 'deny'), !!rule.public]);
  for (const [key, rule] of Object.entries(operationRules)) {
    const last = groups.at(-1);
    const name = `\`${key.replace(/^Query\./, '').replace(/^Mutation\./, '')}\``;
    if (last && signature(last.rule) === signature(rule) && last.names.length < 8) last.names.push(name);
    else groups.push({ names: [name], rule });
  }
  const head = `| operation | ${ROLES.join(' | ')} | no credential |\n|---|${ROLES.map(() => '---|').join('')}---|\n`;
  return `${head}${groups
    .map(({ names, rule }) => `| ${names.join(', ')} | ${ROLES.map((r) => mark[rule[r] ?? 'deny']).join(' | ')} | ${rule.public ? 'yes' : '—'} |`)
    .join('\n')}\n`;
}

function fieldRulesTable(): string {
  const rows = Object.entries(fieldReaders).map(([kind, readers]) => {
    const fields = Object.entries(fieldRules).filter(([, k]) => k === kind).map(([f]) => `\`${f}\``);
    return `| ${kind} | ${fields.join(', ')} | ${readers.roles.join(', ')}${readers.self ? ', and the person itself' : ''} |`;
  });
  return `| rule | fields | who reads them (anyone else reads null) |\n|---|---|---|\n${rows.join('\n')}\n`;
}

/** The state machine of orders, invoices and payments (modules/orders/order.state.ts), one row per transition. */
function sellingTable(): string {
  const rows = machineRows().map(([resource, from, to, operations, events, note]) => {
    const code = (list: string) => (list === '-' ? '—' : list.split(', ').map((x) => `\`${x}\``).join(', '));
    return `| ${resource} | ${from} | ${to} | ${code(operations)} | ${code(events)} | ${note} |`;
  });
  return `| resource | from | to | operations | events | note |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
}

function lifecycleTable(): string {
  const rows = Object.entries(schoolTransitions).map(
    ([event, t]) => `| \`${event}\` | ${t.from.join(', ')} | ${t.to} | ${t.adminFrom.length ? t.adminFrom.join(', ') : '—'} |`,
  );
  return `| event | from | to | the school's admin may fire it from |\n|---|---|---|---|\n${rows.join('\n')}\n`;
}

/**
 * The gate of each status, from the gate itself (auth/school-gate.ts) and the role matrix's `gate`
 * marks: a read-only school's row names the mutations it still runs and the events its admin
 * still fires, so the table says what the guard does.
 */
function gateTable(): string {
  const marked = (gate: Rule['gate']) =>
    Object.entries(operationRules)
      .filter(([, rule]) => rule.gate === gate)
      .map(([key]) => `\`${key.replace(/^Mutation\./, '')}\``);
  const readOnly = (status: SchoolStatus) => {
    const events = schoolEvents.filter((event) => schoolTransitions[event].adminFrom.includes(status)).map((event) => `\`${event}\``);
    const lifecycle = events.length ? `; its admin may still fire ${events.join(', ')} (${marked('lifecycle').join(', ')} with the event alone)` : '';
    return `read only: queries and the mutations that write nothing (${marked('reads').join(', ')}; every GET route runs one of these)${lifecycle}; 403 on other writes`;
  };
  const meaning = { full: () => 'everything its roles allow', read: readOnly, none: () => 'nothing (403)' } as const;
  const rows = Object.entries(schoolStatusAccess).map(([status, access]) => `| ${status} | ${meaning[access](status as SchoolStatus)} |`);
  return `| status | the school's credentials may do |\n|---|---|\n${rows.join('\n')}\n`;
}

/** The event catalog: each payload field with its JSON Schema type, generated from the zod schema the code uses. */
function eventsTable(): string {
  const typeOf = (p: any): string =>
    p.anyOf ? p.anyOf.map(typeOf).join(' or ') : p.type === 'array' ? `${typeOf(p.items ?? {})}[]` : p.type === 'object' ? 'object' : String(p.type ?? 'any');
  const rows = EVENT_NAMES.map((name) => {
    const e = eventCatalog[name];
    const schema = payloadJsonSchema(name) as { properties?: Record<string, any>; required?: string[] };
    const fields = Object.entries(schema.properties ?? {}).map(
      ([k, p]) => `\`${k}\` ${typeOf(p)}${schema.required?.includes(k) ? '' : ' (optional)'}`,
    );
    return `| \`${name}\` | ${e.version} | ${e.subject} | ${e.emittedBy.map((o) => (/^[a-z][A-Za-z]+$/.test(o) ? `\`${o}\`` : o)).join(', ')} | ${fields.join(', ')} |`;
  });
  return `| event | version | subject | emitted by | payload |\n|---|---|---|---|---|\n${rows.join('\n')}\n`;
}

/** The payload codes: the common ones with their default message and REST status, then each domain's enum and its own codes. */
function errorCodesTable(): string {
  const status = (code: ErrorCode) => ('status' in errorCodes[code] ? (errorCodes[code] as { status: number }).status : 422);
  const message = (code: ErrorCode) => errorCodes[code].message.replace('%{count}', 'N');
  // Each module's domain, by the module's folder name.
  const errorDomains = service.modules
    .filter((m) => m.errors)
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((m) => m.errors!);
  const own = [...new Set(errorDomains.flatMap((d) => d.codes))].filter((c) => !(commonCodes as readonly string[]).includes(c));
  const codes = `| code | default message | REST |\n|---|---|---|\n${[...commonCodes, ...own].map((c) => `| \`${c}\` | ${message(c)} | ${status(c)} |`).join('\n')}\n`;
  const domains = errorDomains.map(
    (d) => `| \`${d.name}ErrorCode\` | ${[...d.nodes, ...(d.payloads ?? [])].map((n) => `\`${n}\``).join(', ')} | ${d.codes.length ? d.codes.map((c) => `\`${c}\``).join(', ') : '—'} |`,
  );
  return `${codes}\n| enum | payloads (of these types, or by name) | codes besides ${commonCodes.map((c) => `\`${c}\``).join(', ')} |\n|---|---|---|\n${domains.join('\n')}\n`;
}

/** What the export and the erasure do with each table that holds a person's rows (db/personal-data.ts). */
function personalDataTable(): string {
  const rows = personalData
    .filter((t) => t.relation !== 'none')
    .map((t) => {
      const columns = Object.keys(t.anonymise ?? {}).map((c) => `\`${c}\``).join(', ');
      const erase = t.erase === 'anonymise' ? `anonymise ${columns}` : t.erase;
      const exported = t.exported === false ? '—' : `\`${t.key}\``;
      return `| \`${getTableName(t.table)}\` | ${exported} | ${erase} | ${t.why} |`;
    });
  const none = personalData.filter((t) => t.relation === 'none').map((t) => `\`${getTableName(t.table)}\``);
  return `| table | export key | on erasure | why |\n|---|---|---|---|\n${rows.join('\n')}\n\nNothing about a person: ${none.join(', ')}.\n`;
}

/** The routes the Edools v1 clients call beyond the spec (Route.beyondSpec): each with the operation it runs and the old names' mapping. */
function beyondSpecTable(): string {
  const rows = routes
    .filter((r) => r.beyondSpec !== undefined)
    .map((r) => `| \`${[r.method].flat().join('\\|')} ${r.path}\` | \`${r.field}\` | ${r.beyondSpec} |`);
  return `| route | runs | mapping |\n|---|---|---|\n${rows.join('\n')}\n`;
}
