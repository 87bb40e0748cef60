// Disjoint sets over 0..size-1, with path halving. Used to group documents (and then batches) that must be analyzed
// together.
export class UnionFind {
  private readonly parent: number[];

  constructor(size: number) {
    this.parent = Array.from({ length: size }, (_, index) => index);
  }

  find(index: number): number {
    let at = index;
    while (this.parent[at] !== at) {
      this.parent[at] = this.parent[this.parent[at]!]!;
      at = this.parent[at]!;
    }
    return at;
  }

  union(a: number, b: number): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    // The smaller index stays the representative, so components come out in a stable order.
    if (rootA < rootB) this.parent[rootB] = rootA;
    else if (rootB < rootA) this.parent[rootA] = rootB;
  }

  /** Unions every member of `members` together. */
  unionAll(members: readonly number[]): void {
    for (let i = 1; i < members.length; i++) this.union(members[0]!, members[i]!);
  }

  /** The sets, each sorted ascending, ordered by their smallest member. */
  components(): number[][] {
    const byRoot = new Map<number, number[]>();
    for (let index = 0; index < this.parent.length; index++) {
      const root = this.find(index);
      const members = byRoot.get(root);
      if (members) members.push(index);
      else byRoot.set(root, [index]);
    }
    return [...byRoot.values()];
  }
}
