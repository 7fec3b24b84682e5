// A real server's own tools are compared by the shape of their results (sim/core/result-shape.ts,
// shared with the library helpers): re-exported where the server audit has always found it.
export { shapeResults } from '../../core/result-shape.ts';
