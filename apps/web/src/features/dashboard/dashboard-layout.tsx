import { Outlet } from 'react-router';
import { DashboardMenu } from './dashboard-menu';

/** The frame of /dashboard/* inside the sliding panel: the dashboard menu beside the page. */
export function DashboardLayout() {
  return (
    <div className="dashboard-layout" data-testid="dashboard-layout">
      <DashboardMenu />
      <div className="dashboard-content">
        <Outlet />
      </div>
    </div>
  );
}
