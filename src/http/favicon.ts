import type { FastifyInstance } from 'fastify';

/** The service's icon, 16×16: a white "L" on blue, as SVG (every current browser takes one as a favicon). */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2557d6"/><path d="M5 3h2.5v7.5H12V13H5z" fill="#fff"/></svg>';

/**
 * `GET /favicon.ico`: a browser asks for it beside every page it opens (the playground, /docs), and
 * a 404 there is a console error on each. Not rate limited (http/rate-limit.ts): it costs nothing,
 * and a refused icon would be that error again.
 */
export function registerFavicon(app: FastifyInstance): void {
  app.get('/favicon.ico', { logLevel: 'warn' }, (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG),
  );
}
