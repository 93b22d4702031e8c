/**
 * The V8 flags a production worker runs with: the Dockerfile's CMD, `npm run start:prod`, the image
 * steps and the bench all use these (scripts/dockerfile.test.ts holds them together).
 *
 * Why: an idle worker's live heap is ~15 MB and ~50 MB with 200 conversations in flight, but with
 * V8's defaults the young generation alone reserves 3 × 16 MB and the old generation is allowed to
 * grow towards a quarter of the machine's memory before a full collection, so RSS sat at 2–7× the
 * live heap (bench: 225 MB idle, 365 MB at 200 in flight; with these flags 199 and 261). 512 MB
 * is ten times the heap a burst needs; past it the process fails loudly instead of swapping.
 */
export const WORKER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--max-old-space-size=512'];
