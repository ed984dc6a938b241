# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
f = lambda x: x + 1
# CHECK:      {{.*}}unsupported-lambda.py:[[@LINE-1]]:5: error: lambda expressions are not supported by agc
# CHECK-NEXT: f = lambda x: x + 1
# CHECK-NEXT:     ^~~~~~~~~~~~~~~
