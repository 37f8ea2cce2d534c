"""rules/memo.py: values made from immutable objects, found again by the object's identity."""
from affresco.rules.memo import IdentityMemo


def test_a_value_is_found_by_the_objects_identity_not_by_equality():
    memo = IdentityMemo(8)
    board, equal = tuple([1, 2, 3]), tuple([1, 2, 3])
    assert board == equal and board is not equal
    assert memo.put(board, "frontier") == "frontier"
    assert memo.get(board) == "frontier"
    assert memo.get(equal) is None            # an equal object made apart is another position


def test_the_memo_starts_again_beyond_its_size():
    memo = IdentityMemo(2)
    first = memo.put(tuple([0]), "a")
    kept = [tuple([k]) for k in range(1, 4)]
    for k, obj in enumerate(kept):
        memo.put(obj, k)
    assert first == "a"
    assert memo.get(kept[-1]) == 2            # the newest entry is always kept
    assert sum(memo.get(obj) is not None for obj in kept) <= 2


def test_values_that_grow_past_the_weight_bound_are_forgotten_oldest_first():
    """A memo with a weight bound (the medico's plan sequences, weighed by the plans they have
    made in full): a value that grows once kept is weighed again within CHECK_EVERY puts, and
    the least recently used values go until the rest weigh no more than the bound."""
    from affresco.rules.memo import CHECK_EVERY
    memo = IdentityMemo(100, most=10, weigh=len)
    grown = [tuple([k]) for k in range(3)]
    values = {obj: [] for obj in grown}
    for obj in grown:
        memo.put(obj, values[obj])
    for obj in grown:
        values[obj].extend(range(6))            # each made in full after it was kept: 18 > 10
    light = [tuple([100 + k]) for k in range(CHECK_EVERY)]
    for obj in light:
        memo.put(obj, [])
    kept = [memo.get(obj) is not None for obj in grown]
    assert kept == [False, False, True]         # the oldest two went; 6 <= 10 is kept
    assert all(memo.get(obj) == [] for obj in light)


def test_a_heavy_value_is_weighed_when_it_is_kept():
    memo = IdentityMemo(100, most=10, weigh=len)
    old = tuple([0])
    memo.put(old, list(range(8)))               # heavier than an entry's share (10 // 100): weighed now
    memo.put(tuple([1]), list(range(8)))        # 16 > 10: the older one goes at once
    assert memo.get(old) is None
