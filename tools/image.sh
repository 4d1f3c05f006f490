#!/usr/bin/env bash
# Builds the one Dossier image (Dockerfile, target runtime), tagged with the package version, and optionally pushes it:
#   npm run image                                         ghcr.io/dossier-research/dossier:<version>, in the local engine
#   npm run image -- --registry registry.example.com/team --push
#   npm run image -- --registry registry.example.com/team --platform linux/amd64,linux/arm64 --push   (multi-arch: buildx)
#   npm run image -- --tag 0.1.0-hotfix1 --dry-run        prints the commands only
# Then point the manifests at it (docs/operations.md, "The image"):
#   cd k8s/overlays/prod && kustomize edit set image ghcr.io/dossier-research/dossier=<registry>/dossier:<tag>
set -euo pipefail
cd "$(dirname "$0")/.."

registry=ghcr.io/dossier-research
tag=$(node -p "require('./package.json').version")
platform=''
push=false
dry=false
while [ $# -gt 0 ]; do
  case "$1" in
    --registry) registry=${2:?--registry needs a value}; shift 2 ;;
    --tag) tag=${2:?--tag needs a value}; shift 2 ;;
    --platform) platform=${2:?--platform needs a value}; shift 2 ;;
    --push) push=true; shift ;;
    --dry-run) dry=true; shift ;;
    *) echo "image: unknown option $1 (--registry R, --tag T, --platform P, --push, --dry-run)" >&2; exit 2 ;;
  esac
done
# The migration Job's name carries the tag (k8s/overlays/*/kustomization.yaml): it must be a valid name part.
if ! [[ "$tag" =~ ^[0-9A-Za-z][0-9A-Za-z.]*$ ]]; then
  echo "image: tag \"$tag\" must be letters, digits and dots (it becomes part of the migration Job's name)" >&2
  exit 2
fi
image="${registry%/}/dossier:$tag"

run() {
  echo "+ $*"
  if [ "$dry" = false ]; then "$@"; fi
}

if [ -n "$platform" ]; then
  # Several platforms make a manifest list, which only a registry can hold: buildx pushes it.
  [ "$push" = true ] || { echo "image: --platform builds a multi-arch image, which needs --push" >&2; exit 2; }
  run docker buildx build --target runtime --platform "$platform" --tag "$image" --push .
else
  run docker build --target runtime --tag "$image" .
  if [ "$push" = true ]; then run docker push "$image"; fi
fi
echo "image: $image"
