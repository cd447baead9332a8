// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test of the lock order against CPU hotplug (space.c): a CPU is
 * taken offline and brought back while a callback of its coming online
 * ioremap()s, as intel_uncore's MMIO boxes do (ioremap() takes the store
 * lock, under the hotplug lock), and a kernel thread arms and disarms in
 * a loop (which flips static keys, so takes the hotplug lock, with the
 * store lock). Taken in opposite orders the two deadlock, and lockdep
 * reports the inversion even when the timing spares them; with the one
 * order neither happens.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/debug_locks.h>
#include <linux/io.h>
#include <linux/kthread.h>
#include <linux/pci.h>

#include "kunit_ram.h"

/* A memory BAR of some PCI device: what the online callback maps. */
static resource_size_t lock_test_bar;
static atomic_t lock_test_maps;

static int lock_test_cpu_online(unsigned int cpu)
{
	void __iomem *p = ioremap(lock_test_bar, PAGE_SIZE);

	if (p) {
		iounmap(p);
		atomic_inc(&lock_test_maps);
	}
	return 0;
}

static int lock_test_armer(void *data)
{
	unsigned long *rounds = data;

	while (!kthread_should_stop()) {
		iohook_arm();
		iohook_disarm();
		(*rounds)++;
		cond_resched();
	}
	return 0;
}

static resource_size_t lock_test_find_bar(void)
{
	struct pci_dev *pdev = NULL;
	unsigned int bar;

	for_each_pci_dev(pdev)
		for (bar = 0; bar < PCI_STD_NUM_BARS; bar++)
			if (pci_resource_flags(pdev, bar) & IORESOURCE_MEM &&
			    pci_resource_len(pdev, bar) >= PAGE_SIZE) {
				resource_size_t start = pci_resource_start(pdev, bar);

				pci_dev_put(pdev);
				return start;
			}
	return 0;
}

static void iohook_test_hotplug_lock_order(struct kunit *test)
{
	/* A memory override, so that arming flips the memory key. */
	struct iohook_spec spec = {
		.space = IOHOOK_SPACE_MEM, .addr = 0x000d000000000000ULL,
		.len = 4, .value = 0, .mask = 1, .attr = IOHOOK_RO,
	};
	bool locks_on = debug_locks;
	unsigned long rounds = 0;
	struct task_struct *t;
	unsigned int cpu;
	int state, i;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU that can go offline");
	cpu = cpumask_next(cpumask_first(cpu_online_mask), cpu_online_mask);
	lock_test_bar = lock_test_find_bar();
	if (!lock_test_bar)
		kunit_skip(test, "no PCI memory BAR to map");
	atomic_set(&lock_test_maps, 0);
	KUNIT_ASSERT_EQ(test, iohook_add(&spec), 0);
	state = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "iohook/test:online",
					  lock_test_cpu_online, NULL);
	KUNIT_ASSERT_GT(test, state, 0);
	t = kthread_run(lock_test_armer, &rounds, "iohook-armer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, remove_cpu(cpu), 0);
		KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
	}
	kthread_stop(t);
	cpuhp_remove_state_nocalls(state);
	KUNIT_EXPECT_EQ(test, atomic_read(&lock_test_maps), 3);
	KUNIT_EXPECT_GT(test, rounds, 0UL);
	/* Lockdep, where built in, found no inversion (it stops at its first). */
	if (IS_ENABLED(CONFIG_PROVE_LOCKING) && locks_on)
		KUNIT_EXPECT_TRUE(test, debug_locks);
}

static void lock_test_exit(struct kunit *test)
{
	iohook_kunit_clear();
}

static struct kunit_case iohook_lock_cases[] = {
	KUNIT_CASE(iohook_test_hotplug_lock_order),
	{}
};

static struct kunit_suite iohook_lock_suite = {
	.name = "iohook_lock",
	.exit = lock_test_exit,
	.test_cases = iohook_lock_cases,
};

kunit_test_suite(iohook_lock_suite);
