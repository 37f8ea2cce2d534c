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
