// SPDX-License-Identifier: GPL-2.0
/*
 * stallprobe.c - a test module for the UML test kernel: how long kernel
 * code keeps a woken task waiting for the CPU.
 */

/**
 * DOC: Stall probe
 *
 * UML runs one CPU and never preempts the kernel: a task woken while
 * another is in the kernel waits until that code yields (cond_resched(),
 * a sleep, the return to user mode).  The 1 ms sleepers of the fuzzer and
 * of the e2e stall tests measure that wait on the wall clock, which also
 * holds what UML spends in calls to the host: mapping and unmapping
 * kernel pages (vmalloc memory, one host mmap() or munmap() a page), a
 * process's page tables synced through its stub, and the host not running
 * UML at all.  None of that is a loop the driver could yield in.
 *
 * This probe tells the two apart.  A 1 ms hrtimer looks at the context it
 * interrupted.  While the running task has a reschedule pending and has
 * not switched since, each tick is counted as kernel time when the
 * interrupted instruction is kernel or module text, or host time when it
 * is elsewhere: in the host's C library, which UML calls into.  When the
 * task yields, the stretch ends: its kernel time, the longest so far and
 * the stack of its last kernel sample are kept, and stretches with more
 * than @report_ms of kernel time are logged.
 *
 * The test scripts read @longest_kernel_ms and @longest_ms (the longest
 * stretch, kernel and host time together), and write 0 to both to start
 * a new measurement (one per stall test).  The host not running UML at
 * all costs no tick: the timer fires once when UML runs again, so these
 * figures do not depend on what else the host runs, unlike the wall
 * clock.
 * Ticks are 1 ms apart, so figures are whole milliseconds, low by up to
 * one.
 */
#include <linux/hrtimer.h>
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/irq_regs.h>

#define PROBE_TICK_NS	NSEC_PER_MSEC
#define PROBE_FRAMES	12	/* symbols of a logged stack */
#define PROBE_WORDS	1024	/* stack words searched for them */
#define PROBE_PLACES	8	/* distinct places counted in a stretch */
#define PROBE_NAME	64	/* bytes of a place's function names */

static unsigned int report_ms = 10;
module_param(report_ms, uint, 0644);
MODULE_PARM_DESC(report_ms, "log stretches with more kernel time (ms)");

static unsigned long tplan_text;
module_param(tplan_text, ulong, 0444);
MODULE_PARM_DESC(tplan_text, "where tplan.ko's text starts (0: not loaded)");

static unsigned long tplan_size;
module_param(tplan_size, ulong, 0444);
MODULE_PARM_DESC(tplan_size, "bytes of tplan.ko's text");

static unsigned int longest_kernel_ms;
module_param(longest_kernel_ms, uint, 0644);
MODULE_PARM_DESC(longest_kernel_ms, "the most kernel time of one stretch (ms)");

static unsigned int longest_ms;
module_param(longest_ms, uint, 0644);
MODULE_PARM_DESC(longest_ms, "the longest stretch, host time too (ms)");

/**
 * struct stretch - a task holding the CPU with a reschedule pending
 * @task: the task, NULL between stretches (compared, never dereferenced
 *	  once the stretch began: the task may be gone by its end)
 * @comm: its name, copied when the stretch began
 * @switches: its context switches when the stretch began
 * @kernel_ms: ticks that interrupted kernel code
 * @host_ms: ticks that interrupted a call into the host
 * @stack: the last kernel sample: its instruction and the kernel symbols
 *	   above it on the stack (stale ones too: a hint, not an unwind)
 * @place: where the kernel samples fell: the function interrupted and the
 *	   nearest tplan function above it on the stack (0 if none)
 * @hits: samples per place (the rest went to places past %PROBE_PLACES)
 */
struct stretch {
	struct task_struct *task;
	char comm[TASK_COMM_LEN];
	unsigned long switches;
	unsigned int kernel_ms;
	unsigned int host_ms;
	char stack[PROBE_FRAMES * KSYM_SYMBOL_LEN / 4];
	char place[PROBE_PLACES][2][PROBE_NAME];
	unsigned int hits[PROBE_PLACES];
};

static struct hrtimer probe_timer;
static struct stretch now_held;
static char buf[KSYM_SYMBOL_LEN];

/* In kernel or module text: kallsyms names it (else sprint_symbol() prints a number). */
static bool in_kernel_text(unsigned long ip)
{
	sprint_symbol(buf, ip);
	return buf[0] != '0';
}

static void sample_stack(struct stretch *s, const struct pt_regs *regs)
{
	const unsigned long *p = (const unsigned long *)PT_REGS_SP(regs);
	int len, frames = 0, words;

	len = scnprintf(s->stack, sizeof(s->stack), "%pS",
			(void *)PT_REGS_IP(regs));
	for (words = 0; words < PROBE_WORDS && frames < PROBE_FRAMES; words++) {
		/* stop at the top of the thread's stack */
		if (!((unsigned long)(p + words) & (THREAD_SIZE - 1)))
			break;
		if (!in_kernel_text(p[words]))
			continue;
		sprint_symbol_no_offset(buf, p[words]);
		len += scnprintf(s->stack + len, sizeof(s->stack) - len,
				 " < %s", buf);
		frames++;
	}
}

/* The innermost return address into tplan.ko's text on the stack, named. */
static void tplan_caller(const struct pt_regs *regs, char *name, size_t len)
{
	const unsigned long *p = (const unsigned long *)PT_REGS_SP(regs);
	int words;

	strscpy(name, "-", len);
	for (words = 0; tplan_size && words < PROBE_WORDS; words++) {
		if (!((unsigned long)(p + words) & (THREAD_SIZE - 1)))
			break;
		if (p[words] - tplan_text < tplan_size) {
			sprint_symbol_no_offset(buf, p[words]);
			strscpy(name, buf, len);
			return;
		}
	}
}

/* Count a kernel sample at its place (interrupted function, tplan caller). */
static void count_place(struct stretch *s, const struct pt_regs *regs)
{
	char fn[PROBE_NAME], caller[PROBE_NAME];
	int k;

	sprint_symbol_no_offset(buf, PT_REGS_IP(regs));
	strscpy(fn, buf, sizeof(fn));
	tplan_caller(regs, caller, sizeof(caller));
	for (k = 0; k < PROBE_PLACES; k++) {
		if (!s->hits[k]) {
			strscpy(s->place[k][0], fn, PROBE_NAME);
			strscpy(s->place[k][1], caller, PROBE_NAME);
		}
		if (!strcmp(s->place[k][0], fn) &&
		    !strcmp(s->place[k][1], caller)) {
			s->hits[k]++;
			return;
		}
	}
}

static void print_places(const struct stretch *s)
{
	int k;

	for (k = 0; k < PROBE_PLACES && s->hits[k]; k++)
		pr_info("stallprobe:   %u ms in %s from %s\n", s->hits[k],
			s->place[k][0], s->place[k][1]);
}

static void end_stretch(struct stretch *s)
{
	unsigned int ms = s->kernel_ms + s->host_ms;

	longest_ms = max(longest_ms, ms);
	longest_kernel_ms = max(longest_kernel_ms, s->kernel_ms);
	if (s->kernel_ms > report_ms)
		pr_info("stallprobe: %s held the CPU %u ms (kernel %u, host %u) with a task waiting: %s\n",
			s->comm, ms, s->kernel_ms, s->host_ms, s->stack);
	if (s->kernel_ms > report_ms)
		print_places(s);
	s->task = NULL;
}

static void count_tick(struct stretch *s)
{
	const struct pt_regs *regs = get_irq_regs();

	if (!regs || regs->regs.is_user)
		return;
	if (!in_kernel_text(PT_REGS_IP(regs))) {
		s->host_ms++;
		return;
	}
	s->kernel_ms++;
	if (s->kernel_ms > report_ms / 2)
		count_place(s, regs);
	if (s->kernel_ms > report_ms || s->kernel_ms > longest_kernel_ms)
		sample_stack(s, regs);
}

static enum hrtimer_restart probe_tick(struct hrtimer *timer)
{
	struct task_struct *task = current;
	unsigned long switches = task->nvcsw + task->nivcsw;
	bool held = test_tsk_need_resched(task) && !is_idle_task(task);
	struct stretch *s = &now_held;

	if (s->task && (!held || s->task != task || s->switches != switches))
		end_stretch(s);
	if (held && !s->task) {
		s->task = task;
		strscpy(s->comm, task->comm, sizeof(s->comm));
		s->switches = switches;
		s->kernel_ms = 0;
		s->host_ms = 0;
		s->stack[0] = 0;
		memset(s->hits, 0, sizeof(s->hits));
	} else if (held) {
		count_tick(s);
	}
	hrtimer_forward_now(timer, ns_to_ktime(PROBE_TICK_NS));
	return HRTIMER_RESTART;
}

static int __init stallprobe_init(void)
{
	hrtimer_init(&probe_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	probe_timer.function = probe_tick;
	hrtimer_start(&probe_timer, ns_to_ktime(PROBE_TICK_NS),
		      HRTIMER_MODE_REL);
	return 0;
}

static void __exit stallprobe_exit(void)
{
	hrtimer_cancel(&probe_timer);
	pr_info("stallprobe: longest stretch %u ms, most kernel time %u ms\n",
		longest_ms, longest_kernel_ms);
}

module_init(stallprobe_init);
module_exit(stallprobe_exit);
MODULE_DESCRIPTION("tplan test tool: kernel time a woken task waits for (UML)");
MODULE_LICENSE("GPL");
