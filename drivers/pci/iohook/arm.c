// SPDX-License-Identifier: GPL-2.0
/*
 * Arming: overrides take effect only while iohook is armed.
 *
 * A space's static key is on only while iohook is armed and the space
 * holds at least one override, so an idle space costs its accessors a
 * NOP. The keys are only the gate to the slow path: x86 patches a key's
 * sites in batches, so while a key flips some sites branch and others do
 * not. What decides is iohook_armed, one flag that every slow path reads
 * inside its RCU read section. So:
 * - arming turns the keys on first (the slow paths still see "disarmed"
 *   and give the hardware view), then sets the flag: every site and
 *   space switches with that one store;
 * - disarming clears the flag, waits for a grace period, then turns the
 *   keys off: when it returns no CPU is still emulating;
 * - removing an override (store.c) waits for a grace period before it
 *   turns keys off.
 */
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

#include "arm.h"
#include "override.h"
#include "select.h"
#include "space.h"

bool iohook_armed;

/**
 * iohook_update_keys() - turn each space's key on exactly when it is
 * armed and non-empty
 *
 * Called under iohook_lock(), after an add, or after a removal has
 * waited for a grace period: a key goes off only when no access can
 * still need the slow path.
 */
void iohook_update_keys(void)
{
	int i;

	lockdep_assert_cpus_held();
	lockdep_assert_held(&iohook_mutex);
	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		struct iohook_space_state *sp = &iohook_spaces[i];
		bool want = iohook_armed && iohook_space_in_use(sp);

		if (want && !static_key_enabled(sp->key))
			static_branch_enable_cpuslocked(sp->key);
		else if (!want && static_key_enabled(sp->key))
			static_branch_disable_cpuslocked(sp->key);
	}
}

/* Every override's policy counts start again from 0. */
static void iohook_reset_policies(void)
{
	struct iohook_override *ov;
	int i;

	lockdep_assert_held(&iohook_mutex);
	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		unsigned long index = 0;

		while ((ov = mt_find(&iohook_spaces[i].overrides, &index,
				     ULONG_MAX)))
			for (; ov; ov = iohook_protected(ov->next))
				iohook_policy_reset(&ov->policy);
	}
}

/**
 * iohook_arm() - make every override take effect
 *
 * Overrides added while disarmed are staged; arming makes all of them
 * visible at once, in every space and at every accessor site, with their
 * current values: the keys are turned on first, while the slow paths
 * still give the hardware view, then one flag switches them all. When
 * this returns, every CPU sees the overrides.
 *
 * Every arm restarts the policies' counting (and so their exhaustion and
 * their probability sequence); arming from the disarmed state also makes
 * every selector's recorded value unknown. The counts restart with no
 * access in between: an access that counted in the new run while
 * another still saw the old run's counts would be declined by an
 * exhausted count, or counted in one and not the other. So arming while
 * armed first disarms for one grace period (accesses then see the
 * hardware, and selector writes are not recorded), resets, and arms.
 * Must be called in process context.
 */
void iohook_arm(void)
{
	int i;

	iohook_lock();
	if (iohook_armed) {
		WRITE_ONCE(iohook_armed, false);
		synchronize_rcu();
	} else {
		iohook_sel_forget_all();
	}
	iohook_reset_policies();
	for (i = 0; i < IOHOOK_NR_SPACES; i++) {
		struct iohook_space_state *sp = &iohook_spaces[i];

		if (iohook_space_in_use(sp) && !static_key_enabled(sp->key))
			static_branch_enable_cpuslocked(sp->key);
	}
	WRITE_ONCE(iohook_armed, true);
	iohook_unlock();
}
EXPORT_SYMBOL_GPL(iohook_arm);

/**
 * iohook_disarm() - restore the real hardware view
 *
 * Overrides are kept, with their values, for a later iohook_arm(). One
 * flag switches every site at once; a grace period then lets every
 * access that saw the overrides finish, so when this returns no CPU
 * emulates any more and no rc or wc state changes. Must be called in
 * process context.
 */
void iohook_disarm(void)
{
	iohook_lock();
	if (iohook_armed) {
		WRITE_ONCE(iohook_armed, false);
		synchronize_rcu();
	}
	iohook_update_keys();
	iohook_unlock();
}
EXPORT_SYMBOL_GPL(iohook_disarm);

/**
 * iohook_is_armed() - whether overrides are in effect
 *
 * Return: true between iohook_arm() and iohook_disarm().
 */
bool iohook_is_armed(void)
{
	return READ_ONCE(iohook_armed);
}
EXPORT_SYMBOL_GPL(iohook_is_armed);
