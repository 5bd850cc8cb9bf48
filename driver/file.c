// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - an open file of the accel device: open and close (its client),
 * RELEASE, and giving back a plan whose results were lost.
 */
#include <linux/err.h>
#include <linux/string.h>

#include <drm/drm_file.h>

#include "client.h"
#include "file.h"
#include "gem.h"
#include "plan.h"
#include "tplan_accel.h"

/**
 * tplan_accel_open() - &drm_driver.open: a new open file of the accel
 * device, a client with no plan
 * @drm: the device
 * @file: the DRM file; its driver_priv becomes the client
 *
 * Return: 0 or -ENOMEM.
 */
int tplan_accel_open(struct drm_device *drm, struct drm_file *file)
{
	struct tplan_accel *accel = container_of(drm, struct tplan_accel, drm);
	struct tplan_client *client = tplan_client_create(accel->arena);

	if (IS_ERR(client))
		return PTR_ERR(client);
	file->driver_priv = client;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_open, TPLAN);

/**
 * tplan_accel_postclose() - &drm_driver.postclose: the file is gone (its last descriptor and
 * mapping; the DRM core closed its handles): its client goes with its
 * plans
 * @drm: the device
 * @file: the DRM file
 */
void tplan_accel_postclose(struct drm_device *drm, struct drm_file *file)
{
	tplan_client_destroy(file->driver_priv);
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_postclose, TPLAN);

/**
 * tplan_accel_client() - the client of an open file of an accel device
 * @file: the DRM file, as a host's ioctl handler gets it
 *
 * Context: any; the client lives as long as the file.
 * Return: the client, for the tplan_client_*() calls.
 */
struct tplan_client *tplan_accel_client(struct drm_file *file)
{
	return file->driver_priv;
}
EXPORT_SYMBOL_NS_GPL(tplan_accel_client, TPLAN);

/**
 * tplan_file_drop_plan() - the file gives up one of its plans
 * @file: the DRM file
 * @id: the plan's id
 * @killable: wait for the client's lock killably (a caller's RELEASE), or
 *            whatever happens (the kernel's own clean-ups)
 *
 * The plan's handles in the file are closed and the client's reference
 * dropped; mappings, dma-bufs and imports may keep its regions until they
 * go.
 *
 * Return: 0; -ENOENT when the file holds no plan of that id (a plan still
 * being made is not held yet); -EINTR when killed while waiting.
 */
static int tplan_file_drop_plan(struct drm_file *file, u64 id, bool killable)
{
	struct tplan_arena_plan *plan;
	int ret;

	ret = tplan_client_take_plan(file->driver_priv, id, killable, &plan);
	if (ret)
		return ret;
	if (!plan)
		return -ENOENT;
	tplan_gem_close_plan(file, plan);
	tplan_plan_release(plan);
	return 0;
}

/**
 * tplan_release_ioctl() - TPLAN_IOC_RELEASE: give a plan back
 * @file: the DRM file
 * @data: the caller's &struct tplan_release, copied in
 *
 * Return: 0; -EINVAL for non-zero flags, pad or reserved bytes; -ENOENT
 * when the file holds no plan of that id; -EINTR when the task is killed
 * while waiting for the client's lock.
 */
int tplan_release_ioctl(struct drm_file *file, void *data)
{
	const struct tplan_release *req = data;

	if (req->flags || req->pad ||
	    memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	return tplan_file_drop_plan(file, req->plan_id, true);
}

/**
 * tplan_file_undo_plan() - give back a plan whose id the caller cannot
 * learn
 * @file: the DRM file
 * @id: the plan's id, from a SUBMIT or SUBMIT_SPILL whose results could
 *      not be written back
 *
 * The struct was writable before the handler ran, so only a caller
 * unmapping it meanwhile gets here; the plan is given back after its group
 * (if any) took it.
 */
void tplan_file_undo_plan(struct drm_file *file, u64 id)
{
	tplan_file_drop_plan(file, id, false);
}
