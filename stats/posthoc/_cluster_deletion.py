"""The inner search of exact Bergmann-Hommel (:func:`stats.posthoc.shaffer_bergmann.bergmann_apv`): the largest
weight (pairs inside blocks) of a partition of the learners into cliques of a compatibility
graph that keeps given pairs together -- cluster deletion, NP-hard (Shamir, Sharan & Tsur 2004),
solved by branch and bound over vertex assignments with a packing bound on block sizes.
"""

from __future__ import annotations


def _max_cliques_per_vertex(adj: list[int], n: int) -> list[int]:
    """omega_v: the size of the largest clique containing each vertex (Bron-Kerbosch with a
    pivot, Tomita et al. 2006, on bit masks)."""
    omega = [1] * n

    def expand(r: int, size: int, cand: int, excl: int) -> None:
        if not cand and not excl:
            while r:
                low = r & -r
                v = low.bit_length() - 1
                if size > omega[v]:
                    omega[v] = size
                r ^= low
            return
        pivot, most = 0, -1
        rest = cand | excl
        while rest:
            low = rest & -rest
            v = low.bit_length() - 1
            c = (adj[v] & cand).bit_count()
            if c > most:
                pivot, most = v, c
            rest ^= low
        branch = cand & ~adj[pivot]
        while branch:
            low = branch & -branch
            v = low.bit_length() - 1
            expand(r | low, size + 1, cand & adj[v], excl & adj[v])
            cand &= ~low
            excl |= low
            branch ^= low

    expand(0, 0, (1 << n) - 1, 0)
    return omega


def _packing_bound(caps: list[int]) -> int:
    """Upper bound on sum C(|B|, 2) over the partitions in which each vertex lies in a block of at
    most its cap vertices: the packing of the caps sorted in decreasing order, each block as large as
    the caps allow (the first block takes the most vertices s whose s-th largest cap is >= s, and so
    on). That greedy packing is the optimum: sort an optimal packing's blocks by size, give the
    largest caps to the largest block, and so on (each block's vertices keep caps >= its size); if
    a first block of size s could still grow, moving the first vertex of the next block of size
    s' <= s into it changes the sum by s - (s' - 1) > 0."""
    caps.sort(reverse=True)
    n = len(caps)
    pos = total = 0
    while pos < n:
        s = 1
        while pos + s < n and caps[pos + s] > s:
            s += 1
        total += s * (s - 1) >> 1
        pos += s
    return total


def _best_partition(
    adj: list[int], omega: list[int], n: int, start: list[int], need: int
) -> tuple[int, list[int]] | None:
    """A partition of the n vertices into cliques of the graph ``adj`` (bit masks) that keeps the
    blocks ``start`` together and maximises W = sum C(|B|, 2), if W >= need; else None.

    Depth-first over the vertices in a fixed order (each joins a block it is adjacent to all of, or
    opens one), so each partition is met once. A subtree is cut when its bound is no more than the
    best W found (or below ``need``): every vertex's final block has at most ``cap`` vertices, where cap is the
    least omega_v in the block, and for a block B also |B| + the remaining vertices adjacent to all
    of B, and for a remaining vertex u 1 + the remaining neighbours of u (plus |B| for a block u may
    join); W <= :func:`_packing_bound` of these caps.

    Vertices adjacent to all others (outside ``start``) are not branched on: they all join the
    largest block. C(s + z, 2) is convex in z, so of the ways to share z such vertices among
    blocks of sizes s_1, s_2, ... (or new blocks, s = 0) the best gives all of them to the largest.
    """
    full = (1 << n) - 1
    placed = 0
    for block in start:
        placed |= block
    free = [u for u in range(n) if not placed >> u & 1 and adj[u] | 1 << u == full]
    free_mask = sum(1 << u for u in free)
    placed |= free_mask
    z = len(free)
    free_caps = [omega[u] for u in free]
    # Order: the vertex with the most neighbours among those placed before it, then by degree.
    rest = [u for u in range(n) if not placed >> u & 1]
    order = []
    while rest:
        u = max(rest, key=lambda v: ((adj[v] & placed).bit_count(), adj[v].bit_count()))
        order.append(u)
        rest.remove(u)
        placed |= 1 << u
    depth = len(order)
    remaining = [free_mask] * (depth + 1)  # the vertices not yet in a block, free ones included
    for i in range(depth - 1, -1, -1):
        remaining[i] = remaining[i + 1] | (1 << order[i])
    adj_o = [adj[u] for u in order]
    omega_o = [omega[u] for u in order]
    bit_o = [1 << u for u in order]

    blocks, common, cap, size = [], [], [], []  # members, vertices adjacent to all, size caps, sizes
    for block in start:
        c, limit, x = full, n, block
        while x:
            low = x & -x
            v = low.bit_length() - 1
            c &= adj[v]
            limit = min(limit, omega[v])
            x ^= low
        blocks.append(block)
        common.append(c)
        cap.append(limit)
        size.append(block.bit_count())
    best: list = [need - 1, None]

    def visit(i: int, w: int) -> None:
        if i == depth:
            if z:
                largest = max(range(len(blocks)), key=lambda q: size[q], default=-1)
                w += z * (size[largest] if largest >= 0 else 0) + z * (z - 1) // 2
            if w > best[0]:
                best[0], best[1] = w, list(blocks)
                if z:
                    if largest >= 0:
                        best[1][largest] |= free_mask
                    else:
                        best[1].append(free_mask)
            return
        left = remaining[i]
        caps: list[int] = list(free_caps)
        sized = list(zip(size, common))
        for (s, c), limit in zip(sized, cap):
            g = s + (left & c).bit_count()
            caps.extend([g if g < limit else limit] * s)
        for nbr, bit, om in zip(adj_o[i:], bit_o[i:], omega_o[i:]):
            nbr &= left
            most = nbr.bit_count()
            for s, c in sized:
                if c & bit:
                    g = s + (nbr & c).bit_count()
                    if g > most:
                        most = g
            caps.append(most + 1 if most < om else om)
        if _packing_bound(caps) <= best[0]:
            return
        bit, nbr, om = bit_o[i], adj_o[i], omega_o[i]
        for q in sorted((q for q in range(len(blocks)) if common[q] & bit), key=lambda q: -size[q]):
            saved = blocks[q], common[q], cap[q], size[q]
            blocks[q] |= bit
            common[q] &= nbr
            cap[q] = min(cap[q], om)
            size[q] += 1
            visit(i + 1, w + saved[3])
            blocks[q], common[q], cap[q], size[q] = saved
        blocks.append(bit)
        common.append(nbr)
        cap.append(om)
        size.append(1)
        visit(i + 1, w)
        blocks.pop()
        common.pop()
        cap.pop()
        size.pop()

    w0 = sum(s * (s - 1) // 2 for s in size)
    visit(0, w0)
    return None if best[1] is None else (best[0], best[1])


def _least_weight(t: float, value: float) -> int:
    """The least integer W with W * t > value in floating point (t > 0); any W above C(k, 2) stands
    for "none"."""
    ratio = value / t
    if ratio >= 1e6:
        return 10**6
    w = int(ratio)
    while w > 0 and w * t > value:
        w -= 1
    while not w * t > value:
        w += 1
    return w
