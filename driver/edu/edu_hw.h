/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edu_hw.h - the edu device's DMA engine (edu_hw.c).
 */
#ifndef TPLAN_EDU_HW_H
#define TPLAN_EDU_HW_H

#include <linux/interrupt.h>
#include <linux/types.h>

struct tplan_edu;

/* The device's own buffer, the far side of every transfer. */
#define EDU_BUF_ADDR	0x40000
#define EDU_BUF_SIZE	4096
/*
 * The most one transfer moves: QEMU 7.2 (Debian 12's) refuses a transfer
 * that reaches the buffer's last byte, and refusing stops the whole VM
 * (an off-by-one in its range check, fixed in later QEMUs).
 */
#define EDU_XFER_MAX	(EDU_BUF_SIZE - 1)
/* The engine's reach into host memory: 28-bit addresses. */
#define EDU_DMA_BITS	28

bool edu_hw_identify(struct tplan_edu *edu);
int edu_hw_transfer(struct tplan_edu *edu, dma_addr_t ram, u32 count,
		    bool to_ram, unsigned long deadline);
int edu_hw_settle(struct tplan_edu *edu);
irqreturn_t edu_hw_irq(int irq, void *data);

#endif /* TPLAN_EDU_HW_H */
