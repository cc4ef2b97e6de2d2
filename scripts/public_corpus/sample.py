"""A stratified sample: the rows are grouped by repository, GPU or not, and
features (the corpus list's columns), each group gets its share of the
sample (at least one row while the sample is large enough), and the rows of
a group are drawn with a seeded generator, so a seed always draws the same.
"""
import random


def stratum(row):
    return (row["repo"], row["gpu"], " ".join(sorted(row["features"].split())))


def _quotas(sizes, count):
    total = sum(sizes.values())
    exact = {key: count * size / total for key, size in sizes.items()}
    quotas = {key: min(sizes[key], max(1, int(share)))
              for key, share in exact.items()}
    # Largest remainders first (ties by key) until the sample is full; then,
    # if the minimum of one made it too large, the largest groups give back.
    order = sorted(sizes, key=lambda k: (-(exact[k] - int(exact[k])), k))
    while sum(quotas.values()) < count:
        grew = False
        for key in order:
            if sum(quotas.values()) < count and quotas[key] < sizes[key]:
                quotas[key] += 1
                grew = True
        if not grew:
            break
    for key in sorted(sizes, key=lambda k: (-quotas[k], k)):
        while sum(quotas.values()) > count and quotas[key] > 1:
            quotas[key] -= 1
    return quotas


def stratified(rows, count, seed):
    """`count` rows of `rows` (all if it has no more), in their order."""
    if count >= len(rows):
        return list(rows)
    groups = {}
    for index, row in enumerate(rows):
        groups.setdefault(stratum(row), []).append(index)
    quotas = _quotas({key: len(v) for key, v in groups.items()}, count)
    chosen = set()
    for key in sorted(groups):
        generator = random.Random("%d:%s" % (seed, "|".join(key)))
        chosen.update(generator.sample(groups[key], quotas[key]))
    return [rows[i] for i in sorted(chosen)]
