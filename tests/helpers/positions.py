"""Published positions the technique tests share."""

from __future__ import annotations

# Reached the same way from ...1......48.53.1...19..46..5.6.28.7.6.....2.2.47.5.3..26..91...1.42.58......6... (SE 4.0).
BUG_POSITION = """
79  79  2   1   6   4   3   5   8
6   4   8   2   5   3   7   1   9
5   3   1   9   7   8   4   6   2
1   5   39  6   39  2   8   4   7
38  6   7   38  4   1   9   2   5
2   89  4   7   89  5   6   3   1
48  2   6   5   38  9   1   7   34
39  1   39  4   2   7   5   8   6
478 78  5   38  1   6   2   9   34
"""


# HoDoKu regression library, Uniqueness Test 5 (three corners): 2/6 in r6c89 and r7c89; r6c8, r6c9 and r7c8 hold
# 2/4/6, r7c9 only 2/6 (boxes 6 and 9).
U5_THREE = (
    ":0604-1:26:+324+56+7+918..+9..+8.+3...+893+4.+5...+5+7.63.+9+9624+8+3+5+71.+37.5+9+8....+389+17..+7+96+34+2+185..1"
    "+6+7+5.+93:121 122 227 229 629 639 479:448::"
)


U5_THREE_MARKS = """
3   2   4   5   6   7   9   1   8
56  57  9   12  12  8   46  3   47
16  17  8   9   3   4   26  5   27
148 148 5   7   12  6   3   24  9
9   6   2   4   8   3   5   7   1
14  3   7   12  5   9   8   246 246
245 45  3   8   9   1   7   246 26
7   9   6   3   4   2   1   8   5
248 48  1   6   7   5   24  9   3
"""


# HoDoKu regression library, Uniqueness Test 5 (two diagonal corners): 4/6 in r7c58 and r8c58; r7c5 and r8c8 hold
# only 4/6, r7c8 and r8c5 hold 1/4/6 (boxes 8 and 9).
U5_DIAGONAL = """
7   5   46  9   8   2   46  3   1
2   14  9   6   14  3   5   8   7
13  346 8   14  5   7   9   26  24
8   12  12  5   9   4   3   7   6
6   47  47  3   2   1   8   9   5
5   9   3   8   7   6   14  12  24
13  367 5   147 46  9   2   146 8
9   8   16  2   146 5   7   46  3
4   267 267 17  3   8   16  5   9
"""


# HoDoKu example u601: "Uniqueness Test 6: 2/5 in r4c34,r5c34 => r4c3,r5c4<>5".
U601 = """
 5   4    1   | 26   3  28  | 7  68  9
 89  39   36  | 16   7  18  | 2  4   5
 78  27   26  | 9    4  5   | 1  68  3
 47  237  235 | 25   6  24  | 8  9   1
 49  29   25  | 125  8  124 | 3  7   6
 6   1    8   | 3    9  7   | 4  5   2
 2   6    7   | 4    1  9   | 5  3   8
 1   8    9   | 7    5  3   | 6  2   4
 3   5    4   | 8    2  6   | 9  1   7
"""


# HoDoKu example u602: "Uniqueness Test 6: 2/7 in r8c34,r9c34 => r8c4,r9c3<>7".
U602 = """
 2   3    9   | 5    4   7 | 6   1    8
 5   7    4   | 8    6   1 | 3   9    2
 8   1    6   | 3    2   9 | 4   5    7
 7   4    1   | 9    3   5 | 28  28   6
 9   8    5   | 6    7   2 | 1   3    4
 36  26   23  | 4    1   8 | 5   7    9
 34  25   8   | 12   9   6 | 7   24   135
 46  256  27  | 127  58  3 | 9   248  15
 1   9    237 | 27   58  4 | 28  6    35
"""


# HoDoKu example ar101 (its library line: '+' marks a digit placed while solving, not a given; 6 is gone from
# r3c9): "Avoidable Rectangle Type 1: 9/7 in r1c19,r2c19 => r2c9<>9".
AR101 = (
    ":0607:9:+95+4+3..+1.+7+76+15.42..+2+38.71...4+1...36.8.+2....+9.+189.1..7..3...+1+9.+7+2..+92.7+31.+172.3..9."
    ":639:929:"
)


# HoDoKu regression library, Avoidable Rectangle Type 2: 3/7 in r7c37 and r8c37; r7c7 (3) and r8c7 (7) were placed
# while solving, r7c3 holds 7/9 and r8c3 3/9 (boxes 7 and 9).
AR2_LINE = (
    ":0608-1:37:9+8....6+4+7..1..6+9387.6.8+9+5+1+2+1...+3.+476+3+741+6+2+8+5+9+65+8947+12+32.....+3.5+8..25.+7.+4....9."
    "+2.1:474 494:943 972 982::"
)
