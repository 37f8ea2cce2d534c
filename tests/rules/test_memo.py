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


def test_a_memo_told_when_values_grow_weighs_them_again_only_then_and_keeps_its_bound():
    """With ``grown`` (a count that moves when a kept value may have grown: the medico's plan
    sequences made in full), the periodic weighing of every value is skipped while the count
    stands, the values kept since the last weighing are still counted against the bound, and a
    value that grew is weighed again within CHECK_EVERY puts after the count moves."""
    from affresco.rules.memo import CHECK_EVERY
    made = [0]
    weighed: list = []

    def weigh(value):
        weighed.append(value)
        return len(value)

    memo = IdentityMemo(100, most=10, weigh=weigh, grown=lambda: made[0])
    for k in range(2 * CHECK_EVERY):                # (the first periodic weighing sets the count)
        memo.put(tuple([k]), [])
    weighed.clear()
    for k in range(CHECK_EVERY):
        memo.put(tuple([100 + k]), [])
    assert len(weighed) == CHECK_EVERY              # each value once, when kept: nothing grew
    light = [tuple([200 + k]) for k in range(5)]
    for obj in light:                               # 5 x 3 = 15 > 10 kept since: weighed, the oldest go
        memo.put(obj, [0, 0, 0])
    assert [memo.get(obj) is not None for obj in light] == [False, False, True, True, True]
    memo.get(light[-1]).extend(range(12))           # made in full once kept
    for k in range(CHECK_EVERY):
        memo.put(tuple([300 + k]), [])
    assert memo.get(light[-1]) is not None          # not weighed again: the count stood
    made[0] += 1
    for k in range(CHECK_EVERY):
        memo.put(tuple([400 + k]), [])
    assert memo.get(light[-1]) is None              # weighed again and forgotten (15 + 6 > 10)
