# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
match x:
    case 1:
        pass
# CHECK:      {{.*}}unsupported-match.py:[[@LINE-3]]:1: error: 'match' statements are not supported by agc
# CHECK-NEXT: match x:
# CHECK-NEXT: ^~~~~~~~
