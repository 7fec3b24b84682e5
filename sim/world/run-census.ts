// A probe at the start of every world of this thread: a run from its input (`runWorld`, a history-free
// run, a replay of the explorer's frontier) or a fork of a paused world (exhaustive search). The
// benchmark's stage profile (bench/stages.ts) sets it to count a comparison's runs by the stage that
// started them, and the sampled-runs test to see that fewer worlds ran; nothing else does, and a world
// never reads it, so what a run does cannot depend on it.
// One null check per world when unset: a run costs tens of microseconds.

/** Called as each world starts (`fork`: copied from a paused world rather than run from its input). */
export type WorldStartProbe = (fork: boolean) => void;

/** This thread's probe, or null (the default: nothing counted). */
export const runCensus: { probe: WorldStartProbe | null } = { probe: null };
