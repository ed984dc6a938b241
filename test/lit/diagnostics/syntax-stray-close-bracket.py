# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
]
# CHECK:      {{.*}}syntax-stray-close-bracket.py:[[@LINE-1]]:1: error: invalid syntax: unmatched ']'
# CHECK-NEXT: ]
# CHECK-NEXT: ^
