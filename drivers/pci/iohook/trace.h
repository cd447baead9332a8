/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of iohook: one event per overridden access, so a user can
 * see which code touched which emulated register, and what it got: how
 * many overrides applied, how many a fault policy declined (the access
 * then passed through), and the counts of the policy involved. The
 * chain is the accessor's caller and up to three of its callers, so the
 * driver shows even behind pcie_capability_read_word().
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM iohook

#if !defined(_IOHOOK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _IOHOOK_TRACE_H

#include <linux/tracepoint.h>

/* Return addresses in an event: the accessor's caller and its callers. */
#define IOHOOK_TRACE_DEPTH	4

DECLARE_EVENT_CLASS(iohook_access_class,
		    TP_PROTO(int space, u64 addr, unsigned int width, u64 hw,
			     u64 val, bool hw_touched, unsigned int applied_ovs,
			     unsigned int declined, u64 seen, u64 applied,
			     const unsigned long *chain),
		    TP_ARGS(space, addr, width, hw, val, hw_touched,
			    applied_ovs, declined, seen, applied, chain),
		    TP_STRUCT__entry(__field(int, space)
				     __field(u64, addr)
				     __field(unsigned int, width)
				     __field(u64, hw)
				     __field(u64, val)
				     __field(bool, hw_touched)
				     __field(unsigned int, applied_ovs)
				     __field(unsigned int, declined)
				     __field(u64, seen)
				     __field(u64, applied)
				     __array(unsigned long, chain,
					     IOHOOK_TRACE_DEPTH)),
		    TP_fast_assign(__entry->space = space;
				   __entry->addr = addr;
				   __entry->width = width;
				   __entry->hw = hw;
				   __entry->val = val;
				   __entry->hw_touched = hw_touched;
				   __entry->applied_ovs = applied_ovs;
				   __entry->declined = declined;
				   __entry->seen = seen;
				   __entry->applied = applied;
				   memcpy(__entry->chain, chain,
					  sizeof(__entry->chain));),
		    TP_printk("%s addr=%#llx width=%u hw=%#llx%s val=%#llx overrides=%u declined=%u policy_seen=%llu policy_applied=%llu caller=%pS <- %pS <- %pS <- %pS",
			      __print_symbolic(__entry->space, { 0, "pciconf" },
					       { 1, "mem" }, { 2, "io" }),
			      __entry->addr, __entry->width, __entry->hw,
			      __entry->hw_touched ? "" : "(untouched)",
			      __entry->val, __entry->applied_ovs,
			      __entry->declined, __entry->seen,
			      __entry->applied, (void *)__entry->chain[0],
			      (void *)__entry->chain[1],
			      (void *)__entry->chain[2],
			      (void *)__entry->chain[3])
);

/* A read: @hw is what the hardware returned, @val what the caller got. */
DEFINE_EVENT(iohook_access_class, iohook_read,
	     TP_PROTO(int space, u64 addr, unsigned int width, u64 hw,
		      u64 val, bool hw_touched, unsigned int applied_ovs,
		      unsigned int declined, u64 seen, u64 applied,
		      const unsigned long *chain),
	     TP_ARGS(space, addr, width, hw, val, hw_touched, applied_ovs,
		     declined, seen, applied, chain));

/* A write: @val is what the caller wrote, @hw what reached the hardware. */
DEFINE_EVENT(iohook_access_class, iohook_write,
	     TP_PROTO(int space, u64 addr, unsigned int width, u64 hw,
		      u64 val, bool hw_touched, unsigned int applied_ovs,
		      unsigned int declined, u64 seen, u64 applied,
		      const unsigned long *chain),
	     TP_ARGS(space, addr, width, hw, val, hw_touched, applied_ovs,
		     declined, seen, applied, chain));

#endif /* _IOHOOK_TRACE_H */

/* accessors.c is built with -I$(src) */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
