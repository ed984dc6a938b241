# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f():
    try:
        pass
    finally:
        pass
# CHECK:      {{.*}}unsupported-try-finally-in-def.py:[[@LINE-4]]:5: error: 'try' statements are not supported by agc
# CHECK-NEXT:     try:
# CHECK-NEXT:     ^~~~
