// A table's `state` stream (PROTOCOL.md §3): which states to show, and when to ask for the full picture.

/**
 * The last `state` shown, and the rules for the next one. `epoch` is the fencing token of the server
 * that runs the table: when a table moves to another server (its server died or froze), the new one
 * has a higher epoch and starts its own `seq`; a state of an older epoch comes from a server that no
 * longer runs the table and is dropped. Within an epoch `seq` grows by one per state: a state that
 * skips numbers means some were lost (show it and ask `sync`), one that does not go forward was
 * shown already (drop it). A new epoch's first state is full; a non-full one is not shown, and the
 * full picture is asked for.
 */
export class StateStream {
  constructor() {
    this.reset();
  }

  /** Forget the table (the client left it). */
  reset() {
    /** @type {string|null} */
    this.table = null;
    this.epoch = -1;
    this.seq = -1;
  }

  /**
   * What to do with a `state` message.
   * @param {{table_id: string, epoch?: number, seq: number, full: boolean}} msg
   * @returns {"show"|"show_and_sync"|"drop"|"sync"} show it (and ask `sync`: states were lost), drop
   *   it, or drop it and ask `sync`
   */
  accept(msg) {
    const epoch = msg.epoch ?? 0;
    const same = msg.table_id === this.table;
    let verdict = /** @type {"show"|"show_and_sync"} */ ("show");
    if (same && epoch < this.epoch) return "drop";
    if (same && !msg.full) {
      if (epoch > this.epoch) return "sync";
      if (msg.seq <= this.seq) return "drop";
      if (msg.seq > this.seq + 1) verdict = "show_and_sync";
    }
    this.table = msg.table_id;
    this.epoch = epoch;
    this.seq = msg.seq;
    return verdict;
  }
}
