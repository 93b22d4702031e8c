/**
 * Whether this process has begun to stop. While it stops, what follows from stopping (the
 * database closing its connections, a child's pipe ending) is expected and is not reported as a
 * fault: Ctrl-C reaches the embedded Postgres in the same process group at the same instant.
 */
let stopping = false;

export const markStopping = (): void => {
  stopping = true;
};

export const isStopping = (): boolean => stopping;
