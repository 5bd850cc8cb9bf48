/* SPDX-License-Identifier: GPL-2.0 */
/*
 * submit.h - TPLAN_IOC_SUBMIT: plan a table and reserve its memory
 * (submit.c).
 */
#ifndef TPLAN_SUBMIT_H
#define TPLAN_SUBMIT_H

struct tplan_client;

int tplan_submit_check(struct tplan_client *client, const void *data);
int tplan_submit_ioctl(struct tplan_client *client, void *data);
void tplan_submit_undo(struct tplan_client *client, const void *data);

#endif /* TPLAN_SUBMIT_H */
