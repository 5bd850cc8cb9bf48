// SPDX-License-Identifier: GPL-2.0
/*
 * edu_hw.c - the edu device's DMA engine: one transfer between host memory
 * and the device's buffer at a time, ended by an interrupt.
 */

/**
 * DOC: edu DMA engine
 *
 * Registers (BAR 0): the identification at 0x00 (0xed in its low byte),
 * the interrupt status at 0x24 and its acknowledgment at 0x64, and the
 * engine's source (0x80), destination (0x88), byte count (0x90) and
 * command (0x98: bit 0 starts it and reads 1 while it runs, bit 1 is the
 * direction, device to host memory when set, bit 2 asks for interrupt
 * 0x100 at the end).  The engine ignores a new command while it runs.
 *
 * Locking: only the job worker (one at a time, an ordered workqueue)
 * starts transfers; the interrupt only completes &tplan_edu.dma_done.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/jiffies.h>
#include <linux/pci.h>

#include "edu.h"
#include "edu_hw.h"

#define EDU_REG_ID		0x00
#define EDU_REG_IRQ_STATUS	0x24
#define EDU_REG_IRQ_ACK		0x64
#define EDU_REG_DMA_SRC		0x80
#define EDU_REG_DMA_DST		0x88
#define EDU_REG_DMA_COUNT	0x90
#define EDU_REG_DMA_CMD		0x98

#define EDU_ID_MAGIC		0xed
#define EDU_CMD_RUN		BIT(0)
#define EDU_CMD_TO_RAM		BIT(1)
#define EDU_CMD_IRQ		BIT(2)
#define EDU_IRQ_DMA		0x100

/* How long a transfer that missed its deadline may take to stop. */
#define EDU_SETTLE_MS		2000

/**
 * edu_hw_identify() - whether BAR 0 is an edu device's
 * @edu: the device, its registers mapped
 *
 * Return: true when the identification register says so.
 */
bool edu_hw_identify(struct tplan_edu *edu)
{
	return (readl(edu->regs + EDU_REG_ID) & 0xff) == EDU_ID_MAGIC;
}

/**
 * edu_hw_transfer() - one transfer between host memory and the device's
 * buffer, waited for
 * @edu: the device, its engine idle
 * @ram: the host memory's device address, mapped for the device
 * @count: bytes, 1 to %EDU_XFER_MAX
 * @to_ram: from the device's buffer to @ram, else the other way
 * @deadline: jiffies by which the transfer must have ended
 *
 * Context: process context (the job worker); sleeps.
 * Return: 0, or -ETIMEDOUT when the engine had not ended by @deadline: it
 * may still be running (edu_hw_settle()).
 */
int edu_hw_transfer(struct tplan_edu *edu, dma_addr_t ram, u32 count,
		    bool to_ram, unsigned long deadline)
{
	u64 cmd = EDU_CMD_RUN | EDU_CMD_IRQ | (to_ram ? EDU_CMD_TO_RAM : 0);
	long left;

	reinit_completion(&edu->dma_done);
	writeq(to_ram ? EDU_BUF_ADDR : ram, edu->regs + EDU_REG_DMA_SRC);
	writeq(to_ram ? ram : EDU_BUF_ADDR, edu->regs + EDU_REG_DMA_DST);
	writeq(count, edu->regs + EDU_REG_DMA_COUNT);
	writeq(cmd, edu->regs + EDU_REG_DMA_CMD);
	left = time_after(deadline, jiffies) ? deadline - jiffies : 0;
	if (!wait_for_completion_timeout(&edu->dma_done, left))
		return -ETIMEDOUT;
	return 0;
}

/**
 * edu_hw_settle() - after a missed deadline: wait for the engine to stop
 * @edu: the device
 *
 * Memory the engine may still write cannot be given back; this waits for
 * the transfer in flight to end, then clears its interrupt.
 *
 * Context: process context (the job worker); sleeps up to %EDU_SETTLE_MS.
 * Return: 0 when the engine is idle; -EIO when it never stopped (the
 * device is then wedged).
 */
int edu_hw_settle(struct tplan_edu *edu)
{
	unsigned long until = jiffies + msecs_to_jiffies(EDU_SETTLE_MS);

	while (readq(edu->regs + EDU_REG_DMA_CMD) & EDU_CMD_RUN) {
		if (time_after(jiffies, until))
			return -EIO;
		usleep_range(10000, 20000);
	}
	/* the interrupt of the late transfer, if it came, is for no one */
	wait_for_completion_timeout(&edu->dma_done, msecs_to_jiffies(10));
	return 0;
}

/**
 * edu_hw_irq() - the device's interrupt: acknowledge, complete a transfer
 * @irq: the interrupt
 * @data: the &struct tplan_edu
 *
 * Context: hard interrupt.
 * Return: IRQ_HANDLED, or IRQ_NONE when the device raised nothing (a
 * shared legacy interrupt).
 */
irqreturn_t edu_hw_irq(int irq, void *data)
{
	struct tplan_edu *edu = data;
	u32 status = readl(edu->regs + EDU_REG_IRQ_STATUS);

	if (!status)
		return IRQ_NONE;
	writel(status, edu->regs + EDU_REG_IRQ_ACK);
	if (status & EDU_IRQ_DMA)
		complete(&edu->dma_done);
	return IRQ_HANDLED;
}
