// The rewards area's public face (issue 25: loyalty points and levels, promotions). Named exports only.
export { changePoints, type PointsChange, type PointsChanged } from "./points";
