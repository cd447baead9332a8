/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of iohook: one event per overridden access, so a user can
 * see which code touched which emulated register, and what it got.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM iohook

#if !defined(_IOHOOK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _IOHOOK_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(iohook_access_class,
		    TP_PROTO(int space, u64 addr, unsigned int width, u64 hw,
			     u64 val, bool hw_touched, unsigned long caller),
		    TP_ARGS(space, addr, width, hw, val, hw_touched, caller),
		    TP_STRUCT__entry(__field(int, space)
				     __field(u64, addr)
				     __field(unsigned int, width)
				     __field(u64, hw)
				     __field(u64, val)
				     __field(bool, hw_touched)
				     __field(unsigned long, caller)),
		    TP_fast_assign(__entry->space = space;
				   __entry->addr = addr;
				   __entry->width = width;
				   __entry->hw = hw;
				   __entry->val = val;
				   __entry->hw_touched = hw_touched;
				   __entry->caller = caller;),
		    TP_printk("%s addr=%#llx width=%u hw=%#llx%s val=%#llx caller=%pS",
			      __print_symbolic(__entry->space, { 0, "pciconf" },
					       { 1, "mem" }, { 2, "io" }),
			      __entry->addr, __entry->width, __entry->hw,
			      __entry->hw_touched ? "" : "(untouched)",
			      __entry->val, (void *)__entry->caller)
);

/* A read: @hw is what the hardware returned, @val what the caller got. */
DEFINE_EVENT(iohook_access_class, iohook_read,
	     TP_PROTO(int space, u64 addr, unsigned int width, u64 hw,
		      u64 val, bool hw_touched, unsigned long caller),
	     TP_ARGS(space, addr, width, hw, val, hw_touched, caller));

/* A write: @val is what the caller wrote, @hw what reached the hardware. */
DEFINE_EVENT(iohook_access_class, iohook_write,
	     TP_PROTO(int space, u64 addr, unsigned int width, u64 hw,
		      u64 val, bool hw_touched, unsigned long caller),
	     TP_ARGS(space, addr, width, hw, val, hw_touched, caller));

#endif /* _IOHOOK_TRACE_H */

/* hook.c is built with -I$(src) */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
