-- A step's completion and the router's read in one round trip (docs/decisions/0121). The caller locks the run row
-- (`SELECT … FOR UPDATE` in the same statement) and calls this function laterally on the locked row, so the run is
-- locked before the execution row is touched (lock order: run, then execution; 0026). The function completes the step
-- when `attempt` is still its current attempt (the lease's generation, 0070) and reads what the router needs.
--
-- VOLATILE on purpose: under READ COMMITTED each statement of a volatile PL/pgSQL function takes a fresh snapshot, so
-- the read below sees every shard that committed while the calling statement waited for the run lock (the reason 0071
-- kept the read a statement of its own: a read in the locking statement itself would use the snapshot taken before the
-- wait, and a join would never fire).
CREATE FUNCTION "dossier_complete_step"(
  p_tenant UUID, p_run UUID, p_step_key TEXT, p_attempt INT, p_result JSONB, p_node TEXT, p_iteration INT, p_kind TEXT,
  OUT completed_now INT, OUT latest JSONB, OUT expected INT, OUT done JSONB, OUT decided JSONB, OUT per_shard JSONB
) RETURNS record LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  UPDATE node_executions SET status = 'completed', result = p_result, completed_at = now(), error = NULL
  WHERE step_key = p_step_key AND tenant_id = p_tenant AND attempts = p_attempt AND status <> 'completed';
  GET DIAGNOSTICS completed_now = ROW_COUNT;
  -- Fenced (another attempt owns the step, or it is completed): nothing is written, so nothing is read.
  IF completed_now = 0 THEN
    RETURN;
  END IF;
  SELECT coalesce(jsonb_agg(jsonb_build_object('node', l.node, 'iteration', l.iteration, 'result', l.result)), '[]'::jsonb)
  INTO latest
  FROM (SELECT DISTINCT ON (e.node) e.node, e.iteration, e.result FROM node_executions e
    WHERE e.run_id = p_run AND e.tenant_id = p_tenant AND e.status = 'completed' AND e.shard = 0
    ORDER BY e.node, e.iteration DESC) l;
  IF p_kind = 'fanout' THEN
    SELECT count(*)::int INTO expected FROM outbox o
    WHERE o.tenant_id = p_tenant AND o.run_id = p_run AND o.node = p_node AND o.iteration = p_iteration;
    SELECT coalesce(jsonb_agg(jsonb_build_object('stepKey', e.step_key, 'result', e.result) ORDER BY e.shard), '[]'::jsonb)
    INTO done
    FROM node_executions e
    WHERE e.tenant_id = p_tenant AND e.run_id = p_run AND e.node = p_node AND e.iteration = p_iteration AND e.status = 'completed';
  ELSIF p_kind = 'loop' THEN
    SELECT count(*)::int INTO expected FROM outbox o
    WHERE o.tenant_id = p_tenant AND o.run_id = p_run AND o.node = p_node AND o.iteration = 0;
    SELECT coalesce(jsonb_agg(jsonb_build_object('shard', d.shard, 'iteration', d.last)), '[]'::jsonb)
    INTO decided
    FROM (SELECT o.shard, max(o.iteration) AS last FROM outbox o
      WHERE o.tenant_id = p_tenant AND o.run_id = p_run AND o.node = p_node GROUP BY o.shard) d;
    SELECT coalesce(jsonb_agg(jsonb_build_object('shard', s.shard, 'iteration', s.iteration, 'result', s.result) ORDER BY s.shard), '[]'::jsonb)
    INTO per_shard
    FROM (SELECT DISTINCT ON (e.shard) e.shard, e.iteration, e.result FROM node_executions e
      WHERE e.run_id = p_run AND e.tenant_id = p_tenant AND e.node = p_node AND e.status = 'completed'
      ORDER BY e.shard, e.iteration DESC) s;
  END IF;
END
$$ SET search_path FROM CURRENT;
