/**
 * Every worker loads the service's modules in the order `npm run schema:write` does, before any test
 * file: the files share a worker's modules (isolate: false), and type-graphql orders a type's fields
 * as their decorators ran, so a file that imported one module early would reorder the OpenAPI
 * document's properties (and REST replies' keys) for the files after it.
 */
import '../../src/tools/artifacts.js';
