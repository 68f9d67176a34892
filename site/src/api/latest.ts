/**
 * Only the newest of a panel's loads may fill it: an answer to an earlier filter that
 * arrives after a later one (the unfiltered list is slower) would show the wrong rows.
 */
export interface Latest {
  /** Starts a load; the function it returns says whether that load is still the newest. */
  begin(): () => boolean;
}

export function createLatest(): Latest {
  let newest = 0;
  return {
    begin() {
      const ticket = ++newest;
      return () => ticket === newest;
    },
  };
}
