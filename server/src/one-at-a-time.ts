/**
 * Wraps `work` so that one run goes at a time: a call while it runs gets that run's promise
 * and asks for one more run after it (it may have been called for something the running one
 * had already passed). `work` answers true when it wants to run again at once (more to read).
 */
export function oneAtATime(work: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
        } while ((await work()) === true || again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}
