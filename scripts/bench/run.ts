/** What every section of `npm run bench` shares: where it prints, this run's id, and the load's size. */
export interface BenchRun {
  say: (line?: string) => void;
  /** This run's random id: in its database's, queue prefix's and prospects' names. */
  run: string;
  /** Seconds each load runs. */
  duration: number;
  connections: number;
}
