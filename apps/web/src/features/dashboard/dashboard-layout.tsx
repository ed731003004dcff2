import { Outlet } from 'react-router';
import { DashboardMenu } from './dashboard-menu';
import { DashboardAccess } from './no-access';

/**
 * The frame of /dashboard/* inside the sliding panel: the dashboard menu beside the page — or, on a page the
 * user may not use, the "no access" message in its place.
 */
export function DashboardLayout() {
  return (
    <div className="dashboard-layout" data-testid="dashboard-layout">
      <DashboardMenu />
      <div className="dashboard-content">
        <DashboardAccess>
          <Outlet />
        </DashboardAccess>
      </div>
    </div>
  );
}
