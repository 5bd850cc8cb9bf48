// SPDX-License-Identifier: MIT
/*
 * test_device_find.c - which accel devices libtplan takes for devices that
 * speak tplan's ABI (userspace/lib/device_find.c), on a fake
 * /sys/class/accel made in a temporary directory: tplan's own first, then
 * tplan_edu's, each driver's by N (accel10 after accel2), others skipped;
 * tplan_device_find() is the first unless $TPLAN_DEVICE names another.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "libtplan.h"
#include "../../userspace/lib/device_find.h"

static char root[PATH_MAX];

/* accelN under root/class, its device bound to @driver (NULL: unbound). */
static void add_accel(const char *name, const char *driver)
{
	char dir[PATH_MAX + 64], link[PATH_MAX + 64], target[PATH_MAX + 64];

	snprintf(dir, sizeof(dir), "%s/devices/%s", root, name);
	CHECK(mkdir(dir, 0755) == 0);
	snprintf(link, sizeof(link), "%s/class/%s", root, name);
	CHECK(mkdir(link, 0755) == 0);
	snprintf(link, sizeof(link), "%s/class/%s/device", root, name);
	CHECK(symlink(dir, link) == 0);
	if (driver) {
		snprintf(target, sizeof(target), "../../bus/pci/drivers/%s",
			 driver);
		snprintf(link, sizeof(link), "%s/devices/%s/driver", root, name);
		CHECK(symlink(target, link) == 0);
	}
}

static int make_root(void)
{
	char d[PATH_MAX + 16];

	snprintf(root, sizeof(root), "/tmp/tplan-devfind.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(d, sizeof(d), "%s/class", root);
	mkdir(d, 0755);
	snprintf(d, sizeof(d), "%s/devices", root);
	mkdir(d, 0755);
	return 0;
}

static void remove_root(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

static void find_in_order(void)
{
	char class[PATH_MAX + 8], path[64], driver[32];
	static const char *const want[][2] = {
		{ "/dev/accel/accel2", "tplan" },
		{ "/dev/accel/accel10", "tplan" },
		{ "/dev/accel/accel0", "tplan_edu" },
		{ "/dev/accel/accel3", "tplan_edu" },
	};
	unsigned int i;

	CHECK(make_root() == 0);
	add_accel("accel0", "tplan_edu");
	add_accel("accel1", "ivpu");
	add_accel("accel2", "tplan");
	add_accel("accel3", "tplan_edu");
	add_accel("accel4", NULL);
	add_accel("accel10", "tplan");
	add_accel("accel11", "tplan_edu_other");
	snprintf(class, sizeof(class), "%s/class", root);
	for (i = 0; i < 4; i++) {
		memset(path, 0, sizeof(path));
		memset(driver, 0, sizeof(driver));
		CHECK_EQ(tplan_device_find_in(class, i, path, sizeof(path),
					      driver, sizeof(driver)), 0);
		CHECK(!strcmp(path, want[i][0]));
		CHECK(!strcmp(driver, want[i][1]));
	}
	CHECK_EQ(tplan_device_find_in(class, 4, path, sizeof(path), driver,
				      sizeof(driver)), -ENOENT);
	/* no driver wanted */
	CHECK_EQ(tplan_device_find_in(class, 2, path, sizeof(path), NULL, 0), 0);
	CHECK(!strcmp(path, "/dev/accel/accel0"));
	/* too small */
	CHECK_EQ(tplan_device_find_in(class, 1, path, 10, NULL, 0),
		 -ENAMETOOLONG);
	CHECK_EQ(tplan_device_find_in(class, 2, path, sizeof(path), driver, 5),
		 -ENAMETOOLONG);
	remove_root();
}

static void find_only_host(void)
{
	char class[PATH_MAX + 8], path[64], driver[32];

	CHECK(make_root() == 0);
	add_accel("accel0", "ivpu");
	add_accel("accel1", "tplan_edu");
	snprintf(class, sizeof(class), "%s/class", root);
	CHECK_EQ(tplan_device_find_in(class, 0, path, sizeof(path), driver,
				      sizeof(driver)), 0);
	CHECK(!strcmp(path, "/dev/accel/accel1"));
	CHECK(!strcmp(driver, "tplan_edu"));
	CHECK_EQ(tplan_device_find_in(class, 1, path, sizeof(path), NULL, 0),
		 -ENOENT);
	remove_root();
	/* an empty class directory, and none at all */
	CHECK(make_root() == 0);
	snprintf(class, sizeof(class), "%s/class", root);
	CHECK_EQ(tplan_device_find_in(class, 0, path, sizeof(path), NULL, 0),
		 -ENOENT);
	remove_root();
	CHECK_EQ(tplan_device_find_in(class, 0, path, sizeof(path), NULL, 0),
		 -ENOENT);
}

/* $TPLAN_DEVICE is tplan_device_find()'s answer; empty means unset. */
static void find_env(void)
{
	char path[64];
	char *old = getenv("TPLAN_DEVICE");
	char *saved = old ? strdup(old) : NULL;

	setenv("TPLAN_DEVICE", "/dev/accel/accel7", 1);
	CHECK_EQ(tplan_device_find(path, sizeof(path)), 0);
	CHECK(!strcmp(path, "/dev/accel/accel7"));
	CHECK_EQ(tplan_device_find(path, 8), -ENAMETOOLONG);
	setenv("TPLAN_DEVICE", "", 1);
	/* the host's own /sys: whatever is there, never the empty value */
	if (!tplan_device_find(path, sizeof(path)))
		CHECK(!strncmp(path, "/dev/accel/accel", 16));
	if (saved)
		setenv("TPLAN_DEVICE", saved, 1);
	else
		unsetenv("TPLAN_DEVICE");
	free(saved);
}

static const struct test_case device_find_cases[] = {
	TEST_CASE(find_in_order),
	TEST_CASE(find_only_host),
	TEST_CASE(find_env),
};

TEST_SUITE(device_find_suite, "device_find", device_find_cases);
