/* Which CPU's runqueue an O(1) task is on, as 2.6.8 decides it (kernel/sched.c) for an SMP
 * machine without NUMA or SMT: one sched_domain spanning every CPU (SD_CPU_INIT), each CPU a
 * group of its own. A woken task goes to the waker's CPU when it is cache-cold or that CPU is
 * the less loaded (try_to_wake_up: SD_WAKE_AFFINE, SD_WAKE_BALANCE); a CPU about to go idle
 * pulls from the busiest (idle_balance), an idle CPU tries every balance_interval (1-4 ms)
 * and a busy one every 64 times that (rebalance_tick, load_balance); repeated failures push
 * a task to an idle CPU (active_load_balance); exec moves a task to a clearly idler CPU
 * (sched_balance_exec). Loads are rq->cpu_load, kept by sched_o1.c. */
#include "sim/sched_impl.h"

#define SCHED_LOAD_SCALE 128
#define MIN_INTERVAL	 1 /* ms */
#define MAX_INTERVAL	 4
#define BUSY_FACTOR	 64
#define IMBALANCE_PCT	 125
#define CACHE_NICE_TRIES 1
#define NR_CPUS		 8 /* i386's default CONFIG_NR_CPUS: CPU_OFFSET's divisor */

enum idle_type { IDLE, NOT_IDLE, NEWLY_IDLE };

/* a low guess at a migration source's load */
static uint64_t source_load(int c)
{
	o1_load_sync(c);
	uint64_t now = (uint64_t)o1_nr_running(c) * SCHED_LOAD_SCALE;
	return o1_rq_of(c)->cpu_load < now ? o1_rq_of(c)->cpu_load : now;
}

/* a high guess at a migration target's load */
static uint64_t target_load(int c)
{
	o1_load_sync(c);
	uint64_t now = (uint64_t)o1_nr_running(c) * SCHED_LOAD_SCALE;
	return o1_rq_of(c)->cpu_load > now ? o1_rq_of(c)->cpu_load : now;
}

/* msecs_to_jiffies, at least 1 */
static uint64_t ms_to_jiffies(uint64_t ms)
{
	uint64_t j = (ms * HZ + 999) / 1000;
	return j ? j : 1;
}

/* CPU_OFFSET: each CPU's balancing runs at its own phase of the jiffies */
static uint64_t cpu_offset(int c)
{
	return (uint64_t)HZ * (uint64_t)c / NR_CPUS;
}

/* try_to_wake_up's choice for a task last on CPU cpu, woken on this_cpu (not a sync wakeup:
 * the model has none): stay on an idle CPU rather than join a busy one; else the waker's CPU
 * if the task is cache-cold (SD_WAKE_AFFINE) or the waker's CPU carries no more than
 * 100/137 of the load of the task's (SD_WAKE_BALANCE, half the imbalance_pct); else its own.
 * wake_idle is i386's only with CONFIG_SCHED_SMT. */
int o1_wake_cpu(struct task *p, int cpu, int this_cpu)
{
	uint64_t load = source_load(cpu), this_load = target_load(this_cpu);
	if (load < SCHED_LOAD_SCALE / 2 && this_load > SCHED_LOAD_SCALE / 2)
		return cpu;
	uint64_t imbalance = IMBALANCE_PCT + (IMBALANCE_PCT - 100) / 2;
	if (!o1_task_hot(p, sim_clock) || imbalance * this_load <= 100 * load)
		return this_cpu;
	return cpu;
}

/* A task with no parent on a CPU (the machine's first tasks, kernel threads): the CPU with
 * the fewest tasks, the lowest on a tie. */
int o1_fork_cpu(void)
{
	int best = 0;
	for (int c = 1; c < sched.ncpus; c++)
		if (o1_nr_running(c) < o1_nr_running(best))
			best = c;
	return best;
}

/* find_busiest_group + find_busiest_queue, each CPU its own group of cpu_power
 * SCHED_LOAD_SCALE, the groups read from this CPU's on: the CPU to pull from and how many
 * tasks (*imbalance), or -1 when balanced. */
static int find_busiest(int this_cpu, unsigned long *imbalance, enum idle_type idle)
{
	uint64_t max_load = 0, this_load = 0, total = 0;
	int busiest = -1;
	for (int k = 0; k < sched.ncpus; k++) {
		int c = (this_cpu + k) % sched.ncpus;
		uint64_t load = c == this_cpu ? target_load(c) : source_load(c);
		total += load;
		if (c == this_cpu) {
			this_load = load;
		} else if (load > max_load) {
			max_load = load;
			busiest = c;
		}
	}
	if (busiest >= 0 && this_load < max_load) {
		uint64_t avg = total / (uint64_t)sched.ncpus;
		if (this_load < avg && 100 * max_load > IMBALANCE_PCT * this_load) {
			uint64_t imb =
			    max_load - avg < avg - this_load ? max_load - avg : avg - this_load;
			if (imb >= SCHED_LOAD_SCALE - 1) {
				*imbalance = (unsigned long)((imb + 1) / SCHED_LOAD_SCALE);
				return busiest;
			}
			if (max_load - this_load >= SCHED_LOAD_SCALE * 2) {
				*imbalance = 1;
				return busiest;
			}
			/* not enough imbalance to move a task, unless moving one raises the CPU
			 * power used by an eighth of a CPU */
			const uint64_t S = SCHED_LOAD_SCALE;
			uint64_t pwr_now = (S * (max_load < S ? max_load : S) +
					    S * (this_load < S ? this_load : S)) /
					   S;
			uint64_t pwr_move = 0;
			if (max_load > S)
				pwr_move += S * (max_load - S < S ? max_load - S : S);
			uint64_t add = max_load < S ? max_load : S;
			pwr_move += S * (this_load + add < S ? this_load + add : S);
			pwr_move /= S;
			if (pwr_move >= pwr_now + S / 8) {
				*imbalance = 1;
				return busiest;
			}
		}
	}
	/* out_balanced */
	if (busiest >= 0 && (idle == NEWLY_IDLE || (idle == IDLE && max_load > SCHED_LOAD_SCALE))) {
		*imbalance = 1;
		return busiest;
	}
	*imbalance = 0;
	return -1;
}

/* active_load_balance, done at once (the migration thread's run on the busiest CPU is not
 * modelled): one queued task of the busiest CPU to each idle CPU, cache-hot or not unless
 * the busiest CPU's own domain has not failed enough */
static void active_load_balance(int busiest)
{
	for (int c = 0; c < sched.ncpus && o1_nr_running(busiest) > 1; c++)
		if (c != busiest && !sched.cpus[c].curr)
			o1_move_tasks(busiest, c, 1,
				      o1_rq_of(busiest)->nr_balance_failed < CACHE_NICE_TRIES);
}

/* load_balance (rebalance_tick's, idle or busy) */
static int load_balance(int this_cpu, enum idle_type idle)
{
	struct o1_rq *rq = o1_rq_of(this_cpu);
	unsigned long imbalance;
	int busiest = find_busiest(this_cpu, &imbalance, idle);
	if (busiest < 0) {
		if (rq->balance_interval < MAX_INTERVAL)
			rq->balance_interval *= 2;
		return 0;
	}
	int moved = 0;
	if (o1_nr_running(busiest) > 1)
		moved = o1_move_tasks(busiest, this_cpu, imbalance,
				      rq->nr_balance_failed < CACHE_NICE_TRIES);
	if (!moved) {
		if (++rq->nr_balance_failed > CACHE_NICE_TRIES + 2) {
			active_load_balance(busiest);
			rq->nr_balance_failed = CACHE_NICE_TRIES;
		}
	} else {
		rq->nr_balance_failed = 0;
	}
	rq->balance_interval = MIN_INTERVAL;
	return moved;
}

/* idle_balance + load_balance_newidle: schedule() found nothing to run on CPU c */
void o1_idle_balance(int c)
{
	unsigned long imbalance;
	int busiest = find_busiest(c, &imbalance, NEWLY_IDLE);
	if (busiest >= 0)
		o1_move_tasks(busiest, c, imbalance, true);
}

/* rebalance_tick's balancing part: due when the jiffies (with the CPU's offset) are an
 * interval past the last balance; the interval is balance_interval ms, BUSY_FACTOR times
 * that on a busy CPU */
static bool rebalance_due(int c, enum idle_type idle, uint64_t *interval)
{
	struct o1_rq *rq = o1_rq_of(c);
	uint64_t ms = rq->balance_interval * (idle == IDLE ? 1u : BUSY_FACTOR);
	*interval = ms_to_jiffies(ms);
	uint64_t j = o1_jiffies() + cpu_offset(c);
	return j >= rq->last_balance && j - rq->last_balance >= *interval;
}

/* rebalance_tick(NOT_IDLE) at the ticks of a running stretch, seen at its end */
void o1_rebalance_busy(int c, uint64_t ticks)
{
	uint64_t interval;
	while (ticks-- && rebalance_due(c, NOT_IDLE, &interval)) {
		load_balance(c, NOT_IDLE);
		o1_rq_of(c)->last_balance += interval;
	}
}

static bool others_queued(int c)
{
	for (int i = 0; i < sched.ncpus; i++)
		if (i != c && o1_nr_running(i) >= 2)
			return true;
	return false;
}

static void idle_tick(void *unused, uint64_t arg);

/* An idle CPU's rebalance_tick, armed only while another runqueue has a task queued (with
 * none, every attempt would find the CPUs balanced): at its first tick at which a balance is
 * due. The attempts it skipped meanwhile found nothing: each doubled the interval. */
void o1_idle_arm(int c)
{
	struct o1_rq *rq = o1_rq_of(c);
	if (rq->idle_armed || sched.cpus[c].curr || !others_queued(c))
		return;
	sim_time_t ph = sched.cpus[c].tick_phase;
	sim_time_t t = (sim_clock + JIFFY_NS - ph) / JIFFY_NS * JIFFY_NS + ph; /* next tick */
	uint64_t jj = jiffies_between(0, t) + cpu_offset(c);
	for (;;) { /* the skipped attempts, before this tick */
		uint64_t interval = ms_to_jiffies(rq->balance_interval);
		if (jj < rq->last_balance || jj - 1 - rq->last_balance < interval)
			break;
		if (rq->balance_interval < MAX_INTERVAL) {
			rq->last_balance += interval;
			rq->balance_interval *= 2;
		} else {
			rq->last_balance += (jj - 1 - rq->last_balance) / interval * interval;
			break;
		}
	}
	uint64_t due = rq->last_balance + ms_to_jiffies(rq->balance_interval);
	if (due > jj)
		t += (due - jj) * JIFFY_NS;
	rq->idle_armed = true;
	sched_callback_at(t, idle_tick, NULL, rq->idle_gen * 4096 + (uint64_t)c);
}

static void idle_tick(void *unused, uint64_t arg)
{
	(void)unused;
	int c = (int)(arg % 4096);
	struct o1_rq *rq = o1_rq_of(c);
	if (arg / 4096 != rq->idle_gen || sched.cpus[c].curr)
		return;
	rq->idle_armed = false;
	uint64_t interval;
	if (rebalance_due(c, IDLE, &interval)) {
		load_balance(c, IDLE);
		rq->last_balance += interval;
	}
	o1_idle_arm(c);
}

/* A runqueue now has a task queued behind its running one: the idle CPUs start balancing */
void o1_maybe_arm_idle(int c)
{
	for (int i = 0; sched.nr_idle && i < sched.ncpus; i++)
		if (i != c && !sched.cpus[i].curr)
			o1_idle_arm(i);
}

/* sched_balance_exec + find_idlest_cpu: with others on its runqueue, an exec'ing task goes
 * to the CPU of least target load if that is below 100/112 of its own CPU's source load with
 * the task counted (half the imbalance_pct) */
int o1_exec_cpu(int c)
{
	if (o1_nr_running(c) <= 1)
		return c;
	uint64_t min_load = UINT64_MAX;
	int min_cpu = c;
	for (int i = 0; i < sched.ncpus; i++) {
		uint64_t load = target_load(i);
		if (load < min_load) {
			min_cpu = i;
			min_load = load;
			if (!min_load)
				break;
		}
	}
	uint64_t this_load = source_load(c) + SCHED_LOAD_SCALE;
	if (min_load * (100 + (IMBALANCE_PCT - 100) / 2) < this_load * 100)
		return min_cpu;
	return c;
}
