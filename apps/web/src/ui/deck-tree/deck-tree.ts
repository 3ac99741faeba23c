/**
 * Decks as Anki's deck tree: each deck under its parent (`parent_id`). A deck
 * whose parent the user does not see (not a member of it) is shown at the top.
 */
export interface TreeNode<T> {
  item: T;
  children: TreeNode<T>[];
}

/** The forest of `items`, each list in the order the items came in. */
export function buildTree<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  parentOf: (item: T) => string | null,
): TreeNode<T>[] {
  const nodes = new Map(items.map((item) => [idOf(item), { item, children: [] as TreeNode<T>[] }]));
  const roots: TreeNode<T>[] = [];
  for (const item of items) {
    const node = nodes.get(idOf(item));
    const parentId = parentOf(item);
    const parent = parentId === null ? undefined : nodes.get(parentId);
    if (!node) continue;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** How many decks are below this one, at any depth. */
export function descendantCount<T>(node: TreeNode<T>): number {
  return node.children.reduce((sum, child) => sum + 1 + descendantCount(child), 0);
}

/** The decks from the top of the tree down to `id` (itself last), as far as the user sees them. */
export function pathTo<T>(
  items: readonly T[],
  id: string,
  idOf: (item: T) => string,
  parentOf: (item: T) => string | null,
): T[] {
  const byId = new Map(items.map((item) => [idOf(item), item]));
  const path: T[] = [];
  const seen = new Set<string>();
  for (let current = byId.get(id); current && !seen.has(idOf(current)); ) {
    seen.add(idOf(current));
    path.unshift(current);
    const parentId = parentOf(current);
    current = parentId === null ? undefined : byId.get(parentId);
  }
  return path;
}
