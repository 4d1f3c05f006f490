// Validates rendered objects against their Kubernetes (and KEDA, Prometheus Operator) JSON schemas with kubernetes-models.
const MODELS = {
  'v1/ConfigMap': ['kubernetes-models/v1/ConfigMap', 'ConfigMap'],
  'v1/Secret': ['kubernetes-models/v1/Secret', 'Secret'],
  'v1/Service': ['kubernetes-models/v1/Service', 'Service'],
  'v1/Namespace': ['kubernetes-models/v1/Namespace', 'Namespace'],
  'apps/v1/Deployment': ['kubernetes-models/apps/v1/Deployment', 'Deployment'],
  'batch/v1/Job': ['kubernetes-models/batch/v1/Job', 'Job'],
  'policy/v1/PodDisruptionBudget': ['kubernetes-models/policy/v1/PodDisruptionBudget', 'PodDisruptionBudget'],
  'networking.k8s.io/v1/NetworkPolicy': ['kubernetes-models/networking.k8s.io/v1/NetworkPolicy', 'NetworkPolicy'],
  'networking.k8s.io/v1/Ingress': ['kubernetes-models/networking.k8s.io/v1/Ingress', 'Ingress'],
  'monitoring.coreos.com/v1/PodMonitor': ['@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor', 'PodMonitor'],
  'autoscaling/v2/HorizontalPodAutoscaler': ['kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler', 'HorizontalPodAutoscaler'],
  'keda.sh/v1alpha1/ScaledObject': ['@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject', 'ScaledObject'],
};

/** Returns one message per invalid object (empty when every object matches its schema). */
export async function validate(objects) {
  const errors = [];
  for (const obj of objects) {
    const key = `${obj.apiVersion}/${obj.kind}`;
    const name = `${obj.kind}/${obj.metadata?.name}`;
    const entry = MODELS[key];
    if (!entry) {
      errors.push(`${name}: no schema for ${key} (add it to tools/deploy/validate.mjs)`);
      continue;
    }
    const Model = (await import(entry[0]))[entry[1]];
    try {
      new Model(obj).validate();
    } catch (err) {
      errors.push(`${name}: ${err.message}`);
    }
  }
  return errors;
}
