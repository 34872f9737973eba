"""Disjoint sets of integers (union by size, path compression), made on first mention."""

from __future__ import annotations


class UnionFind:
    """Sets of ints: ``find`` names a set by its root, ``union`` merges two."""

    def __init__(self):
        self.parent: dict[int, int] = {}
        self.size: dict[int, int] = {}

    def find(self, x: int) -> int:
        p = self.parent.get(x)
        if p is None:
            self.parent[x] = x
            self.size[x] = 1
            return x
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: int, b: int) -> tuple[int, int] | None:
        """Merge the sets of a and b; return (new root, absorbed root) or None."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return None
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size.pop(rb)
        return ra, rb
