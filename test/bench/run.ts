/**
 * npm run bench — throughput and latency of representative requests on an in-memory PGlite
 * (or DATABASE_URL). Speed is measured here, never asserted in the test suite.
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.js';
import { issueToken } from '../../src/auth/credential.js';
import { openDatabase } from '../../src/db/client.js';
import { images, libraries } from '../../src/modules/library/library.table.js';
import { media, videoSlideSyncs } from '../../src/modules/media/media.table.js';
import { schoolProducts, schoolProductTopics } from '../../src/modules/school-products/school-product.table.js';
import { schools } from '../../src/modules/schools/school.table.js';

const database = await openDatabase(process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : { dataDir: 'memory://' });
await database.migrate();
// The rate limit would measure itself: the bench's one token sends far more than a client may.
const app = await createApp({ database, rateLimit: { enabled: false } });
await app.ready();
const token = await issueToken(database.db, { role: 'platform', label: 'bench' });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const made = await database.db
  .insert(schools)
  .values(Array.from({ length: 50 }, (_, i) => ({ name: `Bench ${i}`, subdomain: `bench-${Date.now()}-${i}` })))
  .returning({ id: schools.id });
const products = await database.db
  .insert(schoolProducts)
  .values(made.flatMap((s) => Array.from({ length: 10 }, (_, j) => ({ schoolId: s.id, title: `Product ${j}` }))))
  .returning({ id: schoolProducts.id, schoolId: schoolProducts.schoolId });
await database.db
  .insert(schoolProductTopics)
  .values(products.flatMap((p) => [1, 2, 3].map((k) => ({ schoolId: p.schoolId, schoolProductId: p.id, title: `T${k}`, description: 'd' }))));

// 100 videos with 5 slides each in the first school: REST embeds the slides of each.
const benchSchool = made[0].id;
await database.db.insert(libraries).values({ schoolId: benchSchool, name: 'Bench library' });
const slideImages = await database.db
  .insert(images)
  .values(Array.from({ length: 5 }, (_, i) => ({ schoolId: benchSchool, url: `https://cdn.example.com/${i}.png` })))
  .returning({ id: images.id });
const videos = await database.db
  .insert(media)
  .values(Array.from({ length: 100 }, (_, i) => ({ schoolId: benchSchool, title: `Video ${i}`, type: 'VideoSlide' as const, hostKey: `v${i}`, videoId: slideImages[0].id })))
  .returning({ id: media.id });
await database.db
  .insert(videoSlideSyncs)
  .values(videos.flatMap((v) => slideImages.map((img, k) => ({ schoolId: benchSchool, mediaId: v.id, imageId: img.id, syncAt: k * 10 }))));
const inSchool = { ...headers, 'x-school-id': String(benchSchool) };

const nested = JSON.stringify({
  query: '{ schools(first: 50) { nodes { id name schoolProducts(first: 10) { nodes { id title topics { id title } } } } } }',
});

async function measure(name: string, request: () => Promise<{ statusCode: number }>, total = 300, concurrency = 8) {
  for (let i = 0; i < 20; i++) await request(); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) {
        const t = performance.now();
        const res = await request();
        if (res.statusCode >= 400) throw new Error(`${name}: HTTP ${res.statusCode}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
  console.log(`${name.padEnd(44)} ${(latencies.length / seconds).toFixed(0).padStart(6)} req/s   p50 ${pct(0.5)} ms   p95 ${pct(0.95)} ms`);
}

console.log(`driver: ${database.driver}; 50 schools × 10 products × 3 topics`);
await measure('GET /school_products (500 rows, streamed)', () => app.inject({ method: 'GET', url: '/school_products', headers }), 100);
await measure('GET /school_products?page=1&per_page=10', () => app.inject({ method: 'GET', url: '/school_products?page=1&per_page=10', headers }));
await measure(`GET /school_products/${products[0].id}`, () => app.inject({ method: 'GET', url: `/school_products/${products[0].id}`, headers }));
await measure('GraphQL schools { schoolProducts { topics } }', () => app.inject({ method: 'POST', url: '/graphql', headers, payload: nested }), 100);
await measure('POST /school_products', () =>
  app.inject({ method: 'POST', url: '/school_products', headers: { ...headers, 'x-school-id': String(made[0].id) }, payload: JSON.stringify({ school_product: { title: 'New' } }) }),
);
await measure('GET /media?page=1&per_page=100 (5 slides each)', () => app.inject({ method: 'GET', url: '/media?page=1&per_page=100', headers: inSchool }), 100);
await measure(`GET /media/public/${videos[0].id} (no credential)`, () => app.inject({ method: 'GET', url: `/media/public/${videos[0].id}` }));
await app.close();
await database.close();
