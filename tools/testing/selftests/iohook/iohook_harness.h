/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iohook_harness.h - the kselftest harness, with a default timeout long
 * enough for the slowest kernel the tests run on.
 *
 * The harness gives a test 30 s unless it says otherwise. The debug
 * profile's kernel (KASAN, kmemleak, lockdep, DEBUG_KOBJECT_RELEASE)
 * under TCG runs a hotplug scenario, or a series of iohook(8) commands,
 * several times slower than the test kernel, and past 30 s. A timeout
 * only ends a test that hangs, so every test gets 300 s unless it asks
 * for more.
 */
#ifndef IOHOOK_HARNESS_H
#define IOHOOK_HARNESS_H

#include "kselftest_harness.h"

/* Expanded by each TEST_F() after this point. */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300

#endif /* IOHOOK_HARNESS_H */
