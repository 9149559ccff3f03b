import { afterAll, beforeAll } from 'vitest';
import { type Service, startService, type TestSchool } from './service.js';

/** What most test files stand on: a service on a database of the file's own, a school of its own and another (for the isolation checks). */
export interface World {
  readonly service: Service;
  /** The file's school, made through the wizard: `school.admin` is its admin credential. */
  readonly school: TestSchool;
  /** A second school, whose rows the first must never see. */
  readonly other: TestSchool;
}

/**
 * The shared preamble of a test file (or of a describe): registers the beforeAll that starts the
 * service and makes the two schools, and the afterAll that stops it. `ready` runs in the same
 * beforeAll once the world stands, before the file's own hooks: it binds the file's names and makes
 * what every test of the file reads.
 *
 *   let service: Service;
 *   let school: TestSchool;
 *   let other: TestSchool;
 *   twoSchools('Media School', 'Other Media School', (w) => ({ service, school, other } = w));
 *
 * The world returned is read lazily (a fixture factory may take it at collection time); reading it
 * before the hook ran throws.
 */
export function twoSchools(
  schoolName: string,
  otherName: string,
  ready?: (world: World) => unknown,
  options: Parameters<typeof startService>[0] = {},
): World {
  let stood: World | undefined;
  const get = () => {
    if (!stood) throw new Error('twoSchools: the world is read before its beforeAll ran');
    return stood;
  };
  beforeAll(async () => {
    const service = await startService(options);
    try {
      stood = { service, school: await service.school(schoolName), other: await service.school(otherName) };
    } catch (error) {
      await service.stop();
      throw error;
    }
    await ready?.(stood);
  });
  afterAll(async () => {
    await stood?.service.stop();
    stood = undefined;
  });
  return {
    get service() {
      return get().service;
    },
    get school() {
      return get().school;
    },
    get other() {
      return get().other;
    },
  };
}
