/** A background worker of a node: started by its factory (workers/index.ts), stop() drains what is in flight. */
export interface Worker {
  name: string
  stop(): Promise<void>
}
