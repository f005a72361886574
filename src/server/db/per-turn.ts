/**
 * One statement for the calls made in one turn of the event loop (decisions 048, 049, 053).
 *
 * A crowd's requests arrive together: node reads their sockets in one poll phase and runs each
 * request up to its first statement before the loop turns. `perTurn` gathers those calls per owner
 * (the database) and, at the turn's end (`setImmediate`, after every socket read of the poll), runs
 * them as one batch: one round trip and one query built instead of one per request. Each call gets
 * its own answer. A failed batch is run again call by call, so that one bad call (a value the
 * statement refuses) fails only itself, as it did when each request ran its own statement. A lone
 * call waits for nothing but the end of its turn.
 *
 * `run` answers the items in their order (one answer per item). Batches hold at most `max` items.
 */
export function perTurn<Owner extends object, Item, Answer>(
  run: (owner: Owner, items: readonly Item[]) => Promise<readonly Answer[]>,
  max = 200,
): (owner: Owner, item: Item) => Promise<Answer> {
  interface Waiting {
    item: Item;
    resolve(answer: Answer): void;
    reject(err: unknown): void;
  }
  const gathering = new WeakMap<Owner, Waiting[]>();

  async function flush(owner: Owner, batch: readonly Waiting[]): Promise<void> {
    try {
      const answers = await run(
        owner,
        batch.map((w) => w.item),
      );
      batch.forEach((w, i) => w.resolve(answers[i] as Answer));
    } catch (err) {
      if (batch.length === 1) batch[0]!.reject(err);
      else await Promise.all(batch.map((w) => flush(owner, [w])));
    }
  }

  return (owner, item) =>
    new Promise<Answer>((resolve, reject) => {
      let waiting = gathering.get(owner);
      if (!waiting) {
        const mine: Waiting[] = [];
        waiting = mine;
        gathering.set(owner, mine);
        setImmediate(() => {
          gathering.delete(owner);
          for (let i = 0; i < mine.length; i += max) void flush(owner, mine.slice(i, i + max));
        });
      }
      waiting.push({ item, resolve, reject });
    });
}
