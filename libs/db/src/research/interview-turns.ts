import type { Db, Prisma } from '../prisma.service';

export async function insertInterviewTurn(tx: Db, row: Prisma.InterviewTurnUncheckedCreateInput): Promise<void> {
  await tx.interviewTurn.create({ data: row });
}
