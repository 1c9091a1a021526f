/* The hardware profiles' socket costs follow SOCK_SPLIT: with the null system call and a
 * 100-byte copy, the model's whole write() is SOCK_WRITE_SHARE of a write and its read, the
 * share measured in v2.6.25-rc1's instructions (docs/hardware.md, "The socket message"). */
#include "hw/profile.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

static void socket_write_share(void **state)
{
	(void)state;
	int n = 0;
	for (const char *const *name = hw_profile_names(); *name; name++, n++) {
		const struct hw_profile *hw = hw_profile_find(*name);
		assert_non_null(hw);
		double a = (double)hw->syscall_ns + (double)hw->page_copy_ns * 100 / hw->page_size;
		double w = a + (double)hw->sock_send_ns, r = a + (double)hw->sock_recv_ns;
		double share = w / (w + r);
		if (share - SOCK_WRITE_SHARE > 0.0005 || SOCK_WRITE_SHARE - share > 0.0005)
			fail_msg("%s: write share %.4f, want %.4f", *name, share, SOCK_WRITE_SHARE);
	}
	assert_true(n >= 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(socket_write_share),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
