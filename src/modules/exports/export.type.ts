import 'reflect-metadata';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { Payload } from '../../graphql/mutation.js';
import { SchoolOwned } from '../../graphql/record.js';
import { EXPORT_KINDS, type ExportKindValue, exportStatus, type StoredFilters } from './export.table.js';

export const ExportKindEnum = graphqlEnum(
  'ExportKind',
  EXPORT_KINDS,
  'enrollments (one line an enrollment), orders (one line an order), progress (one line an enrollment with its progress figures).',
);
export const ExportStatusEnum = graphqlEnum(
  'ExportStatus',
  exportStatus.enumValues,
  'queued (waiting for the job), running, done (the file can be downloaded), failed (see failure).',
);

@ObjectType({ description: 'A CSV file of the school as it streams now (GET downloadPath); a large school starts an export job instead (startExport).' })
export class ExportFile {
  @Field(() => ExportKindEnum) kind!: ExportKindValue;
  @Field(() => String, { description: 'The name the download is saved as.' }) filename!: string;
  @Field(() => String, { description: 'The path that streams it (GET), its filters in the query string.' }) downloadPath!: string;
}

@ObjectType({ description: 'A CSV export run by the background job: its file is downloaded from downloadPath once done.' })
export class Export extends SchoolOwned {
  @Field(() => ExportKindEnum) kind!: ExportKindValue;
  @Field(() => GraphQLJSONObject, { description: 'The filters it was started with (those of the matching list).' }) filters!: StoredFilters;
  @Field(() => ExportStatusEnum) status!: string;
  @Field(() => Int, { nullable: true, description: 'The lines of data written (the header not counted), once done.' }) rowCount!: number | null;
  @Field(() => String, { nullable: true, description: 'Why it failed.' }) failure!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) finishedAt!: Date | null;
}

export const ExportPayload = Payload(Export, 'export');
