# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
from tensorflow import *
# CHECK:      {{.*}}unsupported-wildcard-import.py:[[@LINE-1]]:24: error: wildcard imports ('import *') are not supported by agc
# CHECK-NEXT: from tensorflow import *
# CHECK-NEXT:                        ^
