// A policy module whose top-level await never settles: the installed CLI must say so on one line
// (its import probe, a worker entry of its own, ships in dist/), not hang or exit 13 silently.
await new Promise(() => {});
export default {};
